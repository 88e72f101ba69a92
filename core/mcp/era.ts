import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { CallToolRequestParams, CallToolResult, Implementation, JSONRPCMessage, ProtocolEra, RequestId, ServerCapabilities, Tool } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';

/** What the fast road reads of an HTTP request: its method, headers and parsed body. */
export interface HttpRequestView {
  method: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A `tools/call` an era answers on the fast road, without the SDK's per-request server. */
export interface PlainCall {
  id: RequestId;
  params: CallToolRequestParams;
  /** The per-request envelope, for callers of the work (an era without one gives `{}`). */
  envelope: Record<string, unknown>;
}

/**
 * One MCP revision the endpoints speak; the revision plugins register these. Everything
 * that differs between revisions is here, so the kernel asks the era and never names one:
 * a third revision is a plugin.
 */
export interface McpEra {
  revision: string;
  /** The SDK's class of the requests this revision answers; maps the SDK's server factory to this era. */
  era: ProtocolEra;
  /** Whether an HTTP request belongs to this revision (the SDK's classification). */
  claims(request: Request, parsedBody: unknown): Promise<boolean>;
  /** Whether a message on a stdio session belongs to this revision. */
  claimsMessage(message: JSONRPCMessage): boolean;
  /** The child's capabilities narrowed to what the hub carries on this revision. */
  capabilities(child: ServerCapabilities | undefined): ServerCapabilities;
  /** A child's tool as advertised on this revision. */
  presentTool(tool: Tool): Tool;
  /** A child's call result as delivered on this revision, given the tool as the child declared it. */
  presentResult(tool: Tool | undefined, result: CallToolResult): CallToolResult;
  /** Whether a child's question can reach a caller on this revision (see `decideElicitation`). */
  elicitation: 'carried' | 'not-offered' | 'switched-off';
  /**
   * The fast road: the plain `tools/call` this request is, or undefined when it needs the
   * SDK (progress, a question the caller could answer, a retry's answers, anything
   * malformed, which must get the SDK's own error).
   */
  plainCall(request: HttpRequestView): PlainCall | undefined;
  /** A fast-road result as this revision puts it on the wire, stating `identity` where the revision does. */
  frameResult(result: CallToolResult, identity: Implementation): Record<string, unknown>;
  /** The resource URIs a request asks to hear about while its response is open; none on a revision without such streams. */
  listenedResources(body: unknown): string[];
}

/** Whether a message uses the per-request envelope (the 2026-07-28 mechanism) or is its discovery probe. */
export function isEnvelopedMessage(message: JSONRPCMessage): boolean {
  if (!('method' in message)) return false;
  const params = message.params as { _meta?: Record<string, unknown> } | undefined;
  return message.method === 'server/discover' || params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}
