import { toNodeHandler } from '@modelcontextprotocol/node';
import { UnsupportedProtocolVersionError, type AuthInfo, type JSONRPCErrorResponse, type McpHandlerRequestOptions, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpEndpoint } from '../http/endpoint.js';
import { jsonRpcError, requestIdOf, writeJson } from '../http/json-rpc-message.js';
import type { HttpRequestView } from './revision.js';
import type { SdkExchange } from '../http/sdk-exchange.js';
import type { ServedRevision } from './served-revision.js';

/** The reply of an MCP request, as the gate needs it: the Node response, and telling Fastify the answer is written outside it. */
export interface HijackableReply {
  readonly raw: ServerResponse;
  hijack(): unknown;
}

/** A revision's SDK handler on one endpoint. */
interface Handling {
  close(): Promise<void>;
  notify: McpHttpHandler['notify'] | undefined;
  /** Answers one web request with the caller's credentials, the exchange handed to the server the SDK builds for it. */
  fetch(request: Request, options: McpHandlerRequestOptions | undefined, exchange: SdkExchange): Promise<Response>;
}

/**
 * One endpoint's HTTP handling over the revisions the enabled plugins serve: the revision
 * that serves a request answers it with its own SDK handler (made on first use). A
 * request no revision serves (its plugin is disabled) is refused with the SDK's
 * unsupported-protocol-version error naming what is served.
 */
export class RevisionGate {
  readonly #handlings = new Map<ServedRevision, Handling>();

  constructor(
    private readonly endpoint: McpEndpoint,
    private readonly revisions: readonly ServedRevision[],
  ) {}

  /**
   * The revision that serves the request, if one does. A request that names no revision
   * and that none claims (not JSON-RPC, say) is answered by the first, which refuses it in
   * the SDK's own words.
   */
  revisionFor(request: HttpRequestView): ServedRevision | undefined {
    return this.revisions.find((revision) => revision.serves(request)) ?? (requestedRevision(request, this.revisions) === undefined ? this.revisions[0] : undefined);
  }

  /**
   * Serves the request on `revision`, or refuses it when none was found; the SDK's server
   * gets `auth` as the caller's credentials, and the endpoint's server the exchange. The
   * reply is hijacked only once the SDK's Node adapter takes the response: its answer may
   * be a stream that outlives the route handler, and the adapter answers its own failures
   * (a JSON-RPC internal error). Whatever fails before that (a revision plugin's handler,
   * say) goes through Fastify's error path like any other failure of the MCP routes.
   */
  async serve(revision: ServedRevision | undefined, view: HttpRequestView, request: IncomingMessage, reply: HijackableReply, auth: AuthInfo | undefined, exchange: SdkExchange): Promise<void> {
    if (!revision) {
      writeJson(reply.raw, 400, unsupportedRevisionAnswer(view, this.revisions));
      return;
    }
    const handling = this.#handling(revision);
    // The Node adapter of one request, so that what it hands the handler is this request's, never a property put on Node's request.
    const node = toNodeHandler({ fetch: (web, options) => handling.fetch(web, auth ? { ...options, authInfo: auth } : options, exchange) });
    reply.hijack();
    await node(request, reply.raw, view.body);
  }

  /** Tells every open stream of every revision about a change (the SDK filters per stream). */
  get notifiers(): McpHttpHandler['notify'][] {
    return [...this.#handlings.values()].flatMap(({ notify }) => (notify ? [notify] : []));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#handlings.values()].map((handling) => handling.close()));
    this.#handlings.clear();
  }

  #handling(revision: ServedRevision): Handling {
    let handling = this.#handlings.get(revision);
    if (!handling) {
      // The SDK builds a request's server from the credentials and the web request only: the
      // exchange is found by the web request this gate made for it, while the request is served.
      const exchanges = new WeakMap<Request, SdkExchange>();
      const handler = revision.createHandler(({ requestInfo }) => this.endpoint.server(revision, requestInfo && exchanges.get(requestInfo)));
      const answered = this.endpoint.answered;
      const fetch = async (request: Request, options: McpHandlerRequestOptions | undefined, exchange: SdkExchange): Promise<Response> => {
        exchanges.set(request, exchange);
        const response = await handler.fetch(request, options);
        return answered ? answered(revision, exchange, response) : response;
      };
      handling = { close: () => handler.close(), notify: handler.notify, fetch };
      this.#handlings.set(revision, handling);
    }
    return handling;
  }
}

/** The revision a request names, asked of every revision's own mechanism. */
export function requestedRevision(request: HttpRequestView, revisions: readonly ServedRevision[]): string | undefined {
  for (const revision of revisions) {
    const named = revision.requestedRevision(request);
    if (named !== undefined) return named;
  }
  return undefined;
}

/**
 * The SDK's unsupported-protocol-version error for a request on a revision no plugin
 * serves, naming the served revisions of the request's kind (those a client speaking
 * its mechanism could choose), or every served one when none claims it.
 */
export function unsupportedRevisionAnswer(request: HttpRequestView, revisions: readonly ServedRevision[]): JSONRPCErrorResponse {
  const claimants = revisions.filter((revision) => revision.claims(request));
  const supported = (claimants.length > 0 ? claimants : revisions).map(({ revision }) => revision);
  const error = new UnsupportedProtocolVersionError({ supported, requested: requestedRevision(request, revisions) ?? 'unknown' });
  return jsonRpcError(requestIdOf(request.body), error.code, error.message, error.data);
}
