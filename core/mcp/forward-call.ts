import type { CallToolRequestParams, CallToolResult } from '@modelcontextprotocol/client';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';

export interface ForwardOptions {
  /** Reset on every progress notification from the child. */
  timeoutMs: number;
}

/**
 * Calls a tool on a child for a caller: wakes the child, passes progress back to the
 * caller (each update resets the timeout), passes the caller's cancellation on, and turns
 * every failure into a tool error that names the server, never a hung request.
 */
export async function forwardToolCall(child: Child, params: CallToolRequestParams, ctx: ServerContext, options: ForwardOptions): Promise<CallToolResult> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  try {
    const client = await child.ensureUp();
    const result = await client.callTool(params, {
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      signal: ctx.mcpReq.signal,
      onprogress:
        progressToken === undefined
          ? undefined
          : (progress) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => undefined),
    });
    return result as CallToolResult;
  } catch (error) {
    return toolError(`Tool call failed: server "${child.name}": ${(error as Error).message}`);
  }
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
