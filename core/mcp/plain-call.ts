import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isInputRequiredResult,
  isSpecType,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type CallToolRequestParams,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type RequestId,
} from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { McpEra } from '../hub.js';
import type { CallerRequest } from './caller-request.js';
import { toolError } from './tool-results.js';

/** The only `_meta` keys a plain call may carry: the standard envelope and the log level. */
const PLAIN_META_KEYS = new Set<string>([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
const PLAIN_MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PLAIN_PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/** A `tools/call` that needs nothing of the SDK's per-request server. */
export interface PlainCallRequest {
  era: McpEra;
  id: RequestId;
  params: CallToolRequestParams;
  /** The 2026-07-28 per-request envelope; empty on 2025-11-25. */
  envelope: Record<string, unknown>;
}

/**
 * Picks out an MCP endpoint's commonest request: a `tools/call` without progress, without
 * the elicitation capability and without a retry's answers. On 2026-07-28 its standard
 * headers match its body and its envelope is well-formed (checked with the SDK's own
 * schemas); on 2025-11-25 it is a stateless call with no `_meta` at all. The test is
 * narrower than the SDK's: anything else, every malformed request included, is left to
 * the SDK, so its checks and its errors stay the only ones.
 */
export function plainCallRequest(request: FastifyRequest, modern: McpEra | undefined, legacy: McpEra | undefined): PlainCallRequest | undefined {
  const { headers, body } = request;
  const accept = headers.accept ?? '';
  if (request.method !== 'POST' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isPlainObject(body) || !Object.keys(body).every((key) => PLAIN_MESSAGE_KEYS.has(key)) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isPlainObject(params) || !Object.keys(params).every((key) => PLAIN_PARAM_KEYS.has(key))) return undefined;
  const { name, arguments: toolArguments, _meta: meta } = params;
  if (typeof name !== 'string' || (toolArguments !== undefined && !isPlainObject(toolArguments))) return undefined;
  const call = { id: id as RequestId, params: { name, ...(toolArguments !== undefined && { arguments: toolArguments }) } };
  const version = headers['mcp-protocol-version'];
  if (modern && version === modern.revision) {
    if (headers['mcp-method'] !== 'tools/call' || headers['mcp-name'] !== name) return undefined;
    if (!isPlainObject(meta) || !Object.keys(meta).every((key) => PLAIN_META_KEYS.has(key)) || meta[PROTOCOL_VERSION_META_KEY] !== modern.revision) return undefined;
    const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
    if (!isSpecType.Implementation(meta[CLIENT_INFO_META_KEY]) || !isSpecType.ClientCapabilities(capabilities) || capabilities.elicitation !== undefined) return undefined;
    if (meta[LOG_LEVEL_META_KEY] !== undefined && !isSpecType.LoggingLevel(meta[LOG_LEVEL_META_KEY])) return undefined;
    return { ...call, era: modern, envelope: meta };
  }
  if (legacy && version === legacy.revision) {
    if (meta !== undefined || headers['mcp-session-id'] !== undefined || headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return undefined;
    return { ...call, era: legacy, envelope: {} };
  }
  return undefined;
}

/**
 * An endpoint's work for a plain call: the tool's result for this caller, or undefined
 * when the endpoint has no such tool (the SDK answers that, with its error).
 */
export type PlainCallWork = (params: CallToolRequestParams, caller: CallerRequest) => Promise<CallToolResult | InputRequiredResult | undefined>;

/**
 * Answers a plain call as the SDK would: the same result, as JSON, with the endpoint's
 * server identity (read after the work, which may have connected the server and learnt
 * its title). The caller closing its connection cancels the work. False when the work
 * found no such tool and nothing was written.
 */
export async function answerPlainCall(call: PlainCallRequest, response: ServerResponse, authInfo: { clientId: string } | undefined, identity: () => Implementation, work: PlainCallWork): Promise<boolean> {
  const cancelled = new AbortController();
  const cancel = (): void => {
    if (!response.writableFinished) cancelled.abort();
  };
  response.once('close', cancel);
  const caller: CallerRequest = {
    mcpReq: { _meta: undefined, envelope: call.envelope, signal: cancelled.signal, notify: async () => undefined, requestState: () => undefined, inputResponses: undefined },
    http: { authInfo },
  };
  const answer = await work(call.params, caller);
  if (answer === undefined) {
    response.off('close', cancel);
    return false;
  }
  // Without the caller's elicitation capability no question is forwarded; the relay has turned any into a tool error.
  const result = isInputRequiredResult(answer) ? toolError('Tool call failed: a question came back on a request that cannot answer one') : answer;
  // 2026-07-28 results state the server's identity and their kind; 2025-11-25 results carry neither.
  const wire = call.era.era === 'modern' ? { ...result, _meta: { ...result._meta, [SERVER_INFO_META_KEY]: identity() }, resultType: 'complete' } : result;
  const text = JSON.stringify({ jsonrpc: '2.0', id: call.id, result: wire });
  if (response.destroyed) return true;
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
