import { type CallToolRequestParams, type CallToolResult, type Implementation, type InputRequiredResult, type Server } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import { unknownToolProtocolError } from '../calls/tool-results.js';
import type { CallerRequest } from '../calls/caller-request.js';
import type { SdkExchange } from './sdk-exchange.js';
import type { ServedRevision } from '../revisions/served-revision.js';

/**
 * One MCP endpoint (`/hub`, `/<name>/mcp`), whichever road a request takes: the SDK's
 * server for the request's revision, or the fast road, which asks for the tool call and
 * the identity directly.
 */
export interface McpEndpoint {
  /** The SDK server that answers one request on `revision`; its calls carry the request's exchange (none over stdio). */
  server(revision: ServedRevision, exchange?: SdkExchange): Server | Promise<Server>;
  /** The identity the endpoint states to callers of `revision`; read after the work, which may have learnt it. */
  identity(revision?: ServedRevision): Implementation;
  /** A `tools/call` as `revision` delivers it; undefined for a tool the endpoint does not offer. */
  callTool(revision: ServedRevision, params: CallToolRequestParams, caller: CallerRequest): Promise<CallToolResult | InputRequiredResult | undefined>;
  /** The child behind a per-server endpoint, whose changes its subscribers hear. */
  readonly child?: Child;
  /** Makes the HTTP answer of a request on `revision` what the endpoint states it is, from what its server learnt (see `answeredAsChild`). */
  readonly answered?: (revision: ServedRevision, exchange: SdkExchange, response: Response) => Response;
}

/**
 * A `tools/call` on `endpoint`, on every road (the SDK's handler and the fast road): a
 * tool the endpoint does not offer gets the answer of one that never existed, the same
 * JSON-RPC error everywhere.
 */
export async function callEndpointTool(endpoint: McpEndpoint, revision: ServedRevision, params: CallToolRequestParams, caller: CallerRequest): Promise<CallToolResult | InputRequiredResult> {
  const answer = await endpoint.callTool(revision, params, caller);
  if (answer === undefined) throw unknownToolProtocolError(params.name);
  return answer;
}
