import type { CallToolResult } from '@modelcontextprotocol/server';

/** The same object as `structuredContent` and as JSON text, for clients that read only one. */
export function structured(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}
