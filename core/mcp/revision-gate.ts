import { toNodeHandler } from '@modelcontextprotocol/node';
import { UnsupportedProtocolVersionError, type AuthInfo, type JSONRPCErrorResponse, type McpHandlerRequestOptions, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessRecord } from '../access-log.js';
import type { McpEndpoint } from './endpoint.js';
import { requestIdOf, writeJson } from './json-rpc-message.js';
import type { HttpRequestView } from './revision.js';
import type { ServedRevision } from './served-revision.js';

/** What an endpoint hands the SDK handler with a request: the caller's credentials and the request's access record. */
export interface Carried {
  auth: AuthInfo | undefined;
  access: AccessRecord | undefined;
}

/** A revision's handler on one endpoint, in the shape Node serves it. */
interface Handling {
  close(): Promise<void>;
  notify: McpHttpHandler['notify'] | undefined;
  node: ReturnType<typeof toNodeHandler>;
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
   * gets `carried.auth` as the caller's credentials, and the endpoint's server the access record.
   */
  async serve(revision: ServedRevision | undefined, view: HttpRequestView, request: IncomingMessage, response: ServerResponse, carried: Carried): Promise<void> {
    if (!revision) {
      writeJson(response, 400, unsupportedRevisionAnswer(view, this.revisions));
      return;
    }
    // The Node adapter passes the request's `auth` on to the handler as it is: the hand-off, opened by `#handling`.
    await this.#handling(revision).node(Object.assign(request, { auth: carried as unknown as AuthInfo }), response, view.body);
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
      // The access record of the request a server is built for, by the SDK's request.
      const records = new WeakMap<Request, AccessRecord>();
      const handler = revision.createHandler(({ requestInfo }) => this.endpoint.server(revision, requestInfo && records.get(requestInfo)));
      const fetch = (request: Request, options?: McpHandlerRequestOptions): Promise<Response> => {
        const { authInfo, ...rest } = options ?? {};
        const carried = authInfo as unknown as Carried | undefined;
        if (carried?.access) records.set(request, carried.access);
        return handler.fetch(request, carried?.auth ? { ...rest, authInfo: carried.auth } : rest);
      };
      const answered = this.endpoint.answered;
      const node = toNodeHandler({ fetch: answered ? (request, options) => answered(revision, () => fetch(request, options)) : fetch });
      handling = { close: () => handler.close(), notify: handler.notify, node };
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
  return { jsonrpc: '2.0', id: requestIdOf(request.body), error: { code: error.code, message: error.message, data: error.data } } as JSONRPCErrorResponse;
}
