import type { CallToolResult, ServerCapabilities, Tool } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin.js';

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
    hub.eras.add('2025-11-25', { revision: '2025-11-25', era: 'legacy', capabilities: narrow, presentTool, presentResult, elicitation: 'not-offered' }, 'mcp-2025-11-25');
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
