import type { CallToolRequestParams, CallToolResult } from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES_META_KEY, isInputRequiredResult, type ClientCapabilities, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { Hub, McpEra } from '../hub.js';
import { callerCapabilities, decideElicitation } from './elicitation.js';
import { toolError } from './tool-results.js';

export interface ForwardContext {
  era: McpEra;
  /** The caller's request: progress, cancellation, `_meta`, and a retry's answers. */
  request: ServerContext;
  /** What a 2025 stdio session declared at `initialize`; per-request capabilities win. */
  sessionCapabilities?: ClientCapabilities;
}

/**
 * Calls a tool on a child for a caller: wakes the child, passes progress back to the
 * caller (each update resets the timeout), passes the caller's cancellation on, relays a
 * child's question when the elicitation decision allows, and turns every failure into a
 * tool error that names the server, never a hung request.
 */
export async function forwardToolCall(
  hub: Hub,
  child: Child,
  params: CallToolRequestParams,
  { era, request, sessionCapabilities }: ForwardContext,
): Promise<CallToolResult | InputRequiredResult> {
  const progressToken = request.mcpReq._meta?.progressToken;
  try {
    const client = await child.ensureUp();
    const capabilities = callerCapabilities(request, sessionCapabilities);
    const decision = decideElicitation(era, capabilities, child);
    // The child may ask only what the caller can answer: its elicitation capability, nothing else.
    const declared = decision.forward ? { _meta: { ...params._meta, [CLIENT_CAPABILITIES_META_KEY]: { elicitation: capabilities?.elicitation } } } : {};
    const requestState = request.mcpReq.requestState<unknown>();
    const result = await client.callTool(
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
    if (!isInputRequiredResult(result)) return result as CallToolResult;
    const relayed = hub.questions.relay(result, decision, request, child);
    return typeof relayed === 'string' ? toolError(`Tool call failed: ${relayed}`) : relayed;
  } catch (error) {
    return toolError(`Tool call failed: server "${child.name}": ${(error as Error).message}`);
  }
}
