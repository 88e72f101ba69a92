import { isLegacyRequest, PROTOCOL_VERSION_META_KEY, type CallToolResult, type ServerCapabilities, type Tool } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { definePlugin, type HttpRequestView, isEnvelopedMessage, isPlainObject, type PlainCall, plainParams, toolCallShape } from '../../core/plugin-api.js';

const REVISION = '2025-11-25';

/**
 * MCP 2025-11-25 on every endpoint, statelessly, chosen by `initialize`. Nothing is
 * pushed on this revision: no list-changed or resource-updated notifications, no
 * `resources/subscribe`, no elicitation. Structured output must be an object here, so a
 * child's non-object output schema and value are wrapped under the single key `result`.
 */
export default definePlugin({
  name: 'mcp-2025-11-25',
  description: 'Serves MCP 2025-11-25 (initialize), wrapping non-object structured output.',
  options: Type.Object({}),
  register(_app, _options, hub) {
    hub.eras.add(
      REVISION,
      {
        revision: REVISION,
        era: 'legacy',
        claims: (request, parsedBody) => isLegacyRequest(request, parsedBody),
        claimsMessage: (message) => !isEnvelopedMessage(message),
        capabilities: narrow,
        presentTool,
        presentResult,
        elicitation: 'not-offered',
        plainCall,
        // Results carry neither the server's identity nor their kind on this revision.
        frameResult: (result) => result,
        listenedResources: () => [],
      },
      'mcp-2025-11-25',
    );
  },
});

function narrow(child: ServerCapabilities | undefined): ServerCapabilities {
  return {
    tools: {},
    ...(child?.resources && { resources: {} }),
    ...(child?.prompts && { prompts: {} }),
    ...(child?.completions && { completions: {} }),
  };
}

/** Object-rooted schemas are the same on both revisions, so a child's own wrap is kept. */
function needsWrap(tool: Tool | undefined): boolean {
  const schema = tool?.outputSchema as { type?: unknown } | undefined;
  return schema !== undefined && schema.type !== 'object';
}

function presentTool(tool: Tool): Tool {
  if (!needsWrap(tool)) return tool;
  return { ...tool, outputSchema: { type: 'object', properties: { result: tool.outputSchema as object }, required: ['result'] } };
}

function presentResult(tool: Tool | undefined, result: CallToolResult): CallToolResult {
  if (!needsWrap(tool) || result.structuredContent === undefined) return result;
  return { ...result, structuredContent: { result: result.structuredContent } };
}

/**
 * A plain call on this revision: a stateless request naming the revision in its header,
 * whose `_meta` (passed on to the child as the SDK's road passes it) asks for no progress.
 */
function plainCall(request: HttpRequestView): PlainCall | undefined {
  const shape = toolCallShape(request);
  if (!shape || request.headers['mcp-protocol-version'] !== REVISION || request.headers['mcp-session-id'] !== undefined) return undefined;
  const meta = shape.meta;
  if (meta !== undefined && (!isPlainObject(meta) || meta.progressToken !== undefined || meta[PROTOCOL_VERSION_META_KEY] !== undefined)) return undefined;
  return { id: shape.id, params: plainParams(shape, meta), envelope: {} };
}
