import type { ServerCapabilities } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin.js';

/**
 * MCP 2026-07-28 on every endpoint: stateless, chosen by `server/discover`. List changes
 * and resource updates reach clients on `subscriptions/listen` streams; `resources/subscribe`
 * is gone from the revision, so a child's subscribe capability is re-advertised to say
 * that a listen filter may name resource URIs.
 */
export default definePlugin({
  name: 'mcp-2026-07-28',
  description: 'Serves MCP 2026-07-28 (server/discover, subscriptions/listen, input-required elicitation).',
  options: Type.Object(
    {
      elicitation: Type.Boolean({
        default: true,
        description: "The operator's switch: false keeps every child's question from reaching callers, so children take their own fallback.",
      }),
    },
    { additionalProperties: false },
  ),
  register(_app, options, hub) {
    hub.eras.add(
      '2026-07-28',
      {
        revision: '2026-07-28',
        era: 'modern',
        capabilities: (child) => narrow(child),
        presentTool: (tool) => tool,
        presentResult: (_tool, result) => result,
        elicitation: options.elicitation ? 'carried' : 'switched-off',
      },
      'mcp-2026-07-28',
    );
  },
});

function narrow(child: ServerCapabilities | undefined): ServerCapabilities {
  return {
    tools: { listChanged: true },
    ...(child?.resources && { resources: { listChanged: true, ...(child.resources.subscribe && { subscribe: true }) } }),
    ...(child?.prompts && { prompts: { listChanged: true } }),
    ...(child?.completions && { completions: {} }),
  };
}
