import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { accessLineWriter, type AccessLineWriter } from './access-line.js';
import { onClose } from './net/on-close.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's access record; null when the log would not write it (its level is off). */
    access: AccessRecord | null;
  }
  interface FastifyContextConfig {
    /**
     * The level of the route's access record: `debug` for probes and scrapes (`/livez`,
     * `/readyz`, `/metrics`), which would otherwise drown the log; `info` by default.
     */
    accessLog?: 'info' | 'debug';
  }
}

const RECORD = Symbol('accessRecord');
/** The line's keys, in its order (`[WRITE]` gives their values in the same order). */
const LINE_KEYS = [
  'reqId',
  'method',
  'path',
  'status',
  'aborted',
  'durationMs',
  'endpoint',
  'rpc',
  'revision',
  'server',
  'tool',
  'virtualServer',
  'virtualTool',
  'via',
  'client',
  'traceId',
  'outcome',
] as const;
const WRITE = Symbol('writeAccessRecord');

/**
 * One HTTP request the hub answered, as its access record says it: the one `info` line
 * per request (Fastify's own "incoming request" and "request completed" are at `debug`).
 * The kernel fills what it knows (the endpoint, the JSON-RPC method, the server and tool
 * a call went to, the caller, the trace id the caller sent); observers add what they know
 * through the events that carry the record (`McpRequestEvent.access`,
 * `ToolCallEvent.access`): `outcome`, their own `traceId`, and keys of their own in
 * `fields`. The line is written when the response closes, so whatever was set by then is in
 * it; nobody writes a second line about the same request.
 */
export class AccessRecord {
  /** The MCP endpoint: `hub`, or the server's name for `/<name>/mcp`. */
  endpoint: string | undefined = undefined;
  /** The JSON-RPC method of an MCP request. */
  rpc: string | undefined = undefined;
  /** The MCP revision that served it. */
  revision: string | undefined = undefined;
  /** The server a tool call was carried to. */
  server: string | undefined = undefined;
  /** The tool called: the server's, or the meta-tool of `/hub` when no server's tool was carried. */
  tool: string | undefined = undefined;
  /** For a call of a virtual server's tool: the virtual server and the tool as the caller named it (`server` and `tool` are the underlying ones). */
  virtualServer: string | undefined = undefined;
  virtualTool: string | undefined = undefined;
  /** What made a server's tool call on `/hub`: the meta-tool (`call_tool`, or another plugin's). */
  via: string | undefined = undefined;
  /** The caller: an OAuth client id or `api-token:<id>`; never a token. */
  client: string | undefined = undefined;
  /** The W3C trace id of the request: the caller's `traceparent`, or the trace a tracer started. */
  traceId: string | undefined = undefined;
  /** How the tool call ended, as observers count it (`ok`, `tool_error`, ...). */
  outcome: string | undefined = undefined;
  /**
   * Further keys an observer adds to the line (its own names; they never replace the ones
   * above). Logged as they are, without the logger's redaction: never a secret.
   */
  fields: Record<string, unknown> | undefined = undefined;

  // Where and at which level the line goes, and when the request began: fields of the
  // record rather than an object of their own, one allocation less per request.
  readonly #log: FastifyBaseLogger;
  readonly #level: 'info' | 'debug';
  readonly #started: number;
  readonly #reqId: string;
  readonly #line: AccessLineWriter | undefined;

  constructor(
    readonly method: string,
    /** The path, without the query string (which can carry codes and states). */
    readonly path: string,
    log: FastifyBaseLogger,
    level: 'info' | 'debug',
    started: number,
    reqId: string,
    /** The logger's line written directly (access-line.ts), when it can be. */
    line?: AccessLineWriter,
  ) {
    this.#line = line;
    this.#log = log;
    this.#level = level;
    this.#started = started;
    this.#reqId = reqId;
  }

  /** Writes the line, once `response` has closed. */
  [WRITE](response: ServerResponse): void {
    const finished = response.writableFinished;
    const durationMs = Math.round((performance.now() - this.#started) * 1000) / 1000;
    if (this.#line !== undefined && this.fields === undefined) {
      // LINE_KEYS' order.
      this.#line(this.#level, [
        this.#reqId,
        this.method,
        this.path,
        finished ? response.statusCode : undefined,
        finished ? undefined : true,
        durationMs,
        this.endpoint,
        this.rpc,
        this.revision,
        this.server,
        this.tool,
        this.virtualServer,
        this.virtualTool,
        this.via,
        this.client,
        this.traceId,
        this.outcome,
      ]);
      return;
    }
    const line = {
      reqId: this.#reqId,
      method: this.method,
      path: this.path,
      status: finished ? response.statusCode : undefined,
      // Closed before the answer was complete: the caller went away.
      aborted: finished ? undefined : true,
      durationMs,
      endpoint: this.endpoint,
      rpc: this.rpc,
      revision: this.revision,
      server: this.server,
      tool: this.tool,
      virtualServer: this.virtualServer,
      virtualTool: this.virtualTool,
      via: this.via,
      client: this.client,
      traceId: this.traceId,
      outcome: this.outcome,
    };
    // An observer's own keys come first, the record's win over them; without any, the literal as it is (no spread).
    this.#log[this.#level](this.fields === undefined ? line : { ...this.fields, ...line }, 'request');
  }
}

type Recorded = ServerResponse & { [RECORD]?: AccessRecord };

/**
 * Writes the access record of every request this context answers, answers written on the raw response (the
 * MCP endpoints) included, when the response closes. Cheap when its level is off: no
 * record is made. A context inside one that records already (the hub plugin in the
 * standalone server, which records its 404s too) adds nothing.
 */
export function recordAccess(app: FastifyInstance): void {
  if (app.hasRequestDecorator('access')) return;
  // The line holds only what the kernel and observers set, none of it a secret: it skips the
  // logger's redaction, a walk of every record for credentials that costs several times the
  // rest of writing the line.
  const log = app.log.child({}, { redact: { paths: [] } });
  const line = accessLineWriter(log, LINE_KEYS);
  app.decorateRequest('access', null);
  app.addHook('onRequest', (request, reply, done) => {
    const level = request.routeOptions.config.accessLog ?? 'info';
    if (levelEnabled(log, level)) {
      const record = new AccessRecord(request.method, pathOf(request), log, level, performance.now(), request.id, line);
      request.access = record;
      const response = reply.raw as Recorded;
      response[RECORD] = record;
      onClose(response, writeRecord);
    }
    done();
  });
}

function writeRecord(this: Recorded): void {
  this[RECORD]?.[WRITE](this);
}

/** Whether the logger writes at `level` (a logger that cannot say, an embedding app's own, is taken to write). */
export function levelEnabled(log: FastifyBaseLogger, level: string): boolean {
  return (log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.(level) ?? true;
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The trace id of a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), if it is one. */
export function traceIdOf(traceparent: unknown): string | undefined {
  if (typeof traceparent !== 'string' || traceparent.length < 55 || traceparent[2] !== '-' || traceparent[35] !== '-') return undefined;
  const traceId = traceparent.slice(3, 35);
  return /^[0-9a-f]{32}$/.test(traceId) && traceId !== '0'.repeat(32) ? traceId : undefined;
}
