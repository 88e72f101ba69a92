import type { CallToolRequestParams, CallToolResult, Tool } from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES_META_KEY, isInputRequiredResult, type ClientCapabilities, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { ChildConnection } from '../children/child-type.js';
import type { Child } from '../children/child.js';
import type { Hub, McpEra } from '../hub.js';
import type { CallerRequest } from './caller-request.js';
import { callerCapabilities, decideElicitation, type ElicitationDecision } from './elicitation.js';
import { relayed } from './relayed.js';
import { toolError } from './tool-results.js';

export interface ForwardContext {
  era: McpEra;
  /** The caller's request: progress, cancellation, `_meta`, and a retry's answers. */
  request: CallerRequest;
  /** What a 2025 stdio session declared at `initialize`; per-request capabilities win. */
  sessionCapabilities?: ClientCapabilities;
}

/**
 * Calls a tool on a child for a caller: wakes the child (which does not idle out during
 * the call), passes progress back to the caller (each update resets the timeout), passes
 * the caller's cancellation on, relays a child's question when the elicitation decision
 * allows, and turns every failure into a tool error that names the server, never a hung
 * request. The child's server identity does not travel with its result.
 */
export async function forwardToolCall(
  hub: Hub,
  child: Child,
  tool: Tool,
  params: CallToolRequestParams,
  { era, request, sessionCapabilities }: ForwardContext,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    const capabilities = callerCapabilities(request, sessionCapabilities);
    const decision = decideElicitation(era, capabilities, child);
    const result = await child.withConnection(
      async (connection) => (await plainCall(hub, connection, tool, params, request, decision)) ?? (await sdkCall(hub, connection, params, request, decision, capabilities)),
    );
    if (!isInputRequiredResult(result)) return relayed(result);
    const question = hub.questions.relay(result, decision, request, child);
    return typeof question === 'string' ? toolError(`Tool call failed: ${question}`) : question;
  } catch (error) {
    return toolError(`Tool call failed: server "${child.name}": ${(error as Error).message}`);
  }
}

/**
 * The connection's plain road, when the call needs nothing it lacks: no progress to pass
 * back, no question the caller could answer, no retry's answers, no output schema for the
 * SDK to check. Undefined when the road is closed and the SDK client takes the call.
 */
async function plainCall(
  hub: Hub,
  connection: ChildConnection,
  tool: Tool,
  params: CallToolRequestParams,
  request: CallerRequest,
  decision: ElicitationDecision,
): Promise<CallToolResult | InputRequiredResult | undefined> {
  const plain =
    connection.plainToolCall &&
    request.mcpReq._meta?.progressToken === undefined &&
    !decision.forward &&
    request.mcpReq.inputResponses === undefined &&
    request.mcpReq.requestState() === undefined &&
    tool.outputSchema === undefined;
  if (!plain) return undefined;
  // One controller for the caller's cancellation and the timeout: AbortSignal.any costs
  // more than the call. The timeout's error is made only when it fires (a stack is costly).
  const call = new AbortController();
  let timedOut: Error | undefined;
  const timer = setTimeout(() => {
    timedOut = new Error(`the call timed out after ${hub.settings.callTimeoutMs} ms`);
    call.abort(timedOut);
  }, hub.settings.callTimeoutMs);
  const cancel = (): void => call.abort(request.mcpReq.signal.reason);
  request.mcpReq.signal.addEventListener('abort', cancel, { once: true });
  try {
    return await connection.plainToolCall?.(params, call.signal);
  } catch (error) {
    throw timedOut ?? error;
  } finally {
    clearTimeout(timer);
    request.mcpReq.signal.removeEventListener('abort', cancel);
  }
}

async function sdkCall(
  hub: Hub,
  connection: ChildConnection,
  params: CallToolRequestParams,
  request: CallerRequest,
  decision: ElicitationDecision,
  capabilities: ClientCapabilities | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const progressToken = request.mcpReq._meta?.progressToken;
  // The child may ask only what the caller can answer: its elicitation capability, nothing else.
  const declared = decision.forward ? { _meta: { ...params._meta, [CLIENT_CAPABILITIES_META_KEY]: { elicitation: capabilities?.elicitation } } } : {};
  const requestState = request.mcpReq.requestState<unknown>();
  const result = await connection.client.callTool(
    {
      ...params,
      ...declared,
      ...(request.mcpReq.inputResponses && { inputResponses: request.mcpReq.inputResponses }),
      ...(typeof requestState === 'string' && { requestState }),
    },
    {
      timeout: hub.settings.callTimeoutMs,
      resetTimeoutOnProgress: true,
      signal: request.mcpReq.signal,
      allowInputRequired: true,
      onprogress:
        progressToken === undefined
          ? undefined
          : (progress) => void request.mcpReq.notify({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => undefined),
    },
  );
  return isInputRequiredResult(result) ? result : (result as CallToolResult);
}
