import { ProtocolError, type CallToolRequestParams } from '@modelcontextprotocol/server';
import { findServer, hiddenServerError, unknownToolError } from './lookup.js';
import { CallToolInput } from './schemas.js';
import { HUB_ERROR_CODES, hubErrorCode, type PluginHub } from '../../core/plugin/index.js';
import { isUnknownTarget, type MetaTool, toolError } from '../../core/plugin/meta-tool.js';
import { traceContextOf } from '../../core/plugin/observe.js';

/**
 * Calls a child's tool and returns its result as the caller's revision delivers it, or
 * the child's question when the elicitation decision allows (the answer comes back on the
 * retry of `call_tool`). Looking the tool up, waking, progress, cancellation, the timeout
 * and failures are `hub.servers.callTool`'s, exactly as on the server's own endpoint (and
 * counted by observers the same way), except that every refusal and the child's protocol
 * error are told as tool errors (with the error's code): the caller of `call_tool` called
 * a tool of the hub, and the model reads tool results.
 */
export function callTool(hub: PluginHub): MetaTool {
  return {
    name: 'call_tool',
    description:
      "Calls a tool on a server and returns the tool's own result. Pass `arguments` matching the inputSchema from get_tool_schema. A sleeping server is woken first, which can take a moment.",
    inputSchema: CallToolInput,
    annotations: { title: 'Call tool', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    // Not async: every call of a server's tool on `/hub` passes here, and the server's answer is handed on with two handlers rather than a frame.
    call(args, context) {
      const { server, tool: name, arguments: toolArguments } = args as CallToolInput;
      const found = findServer(hub, server, context.request);
      if (!found.ok) return Promise.resolve(found.error);
      const child = found.value;
      const trace = traceContextOf(context.request.meta);
      const params: CallToolRequestParams = { name };
      if (toolArguments !== undefined) params.arguments = toolArguments;
      if (trace) params._meta = trace;
      return hub.servers.callTool(child, params, context).then(
        (answer) => (isUnknownTarget(answer) ? unknownToolError(child, name) : answer),
        (error: unknown) => {
          if (hubErrorCode(error) === HUB_ERROR_CODES.SERVER_HIDDEN) return hiddenServerError(hub, child);
          if (hubErrorCode(error) !== undefined) return toolError(`Tool call failed: ${(error as Error).message}`);
          if (!ProtocolError.isInstance(error)) throw error;
          return toolError(`Tool call failed: server "${child.name}" answered with error ${error.code}: ${error.message}`);
        },
      );
    },
  };
}
