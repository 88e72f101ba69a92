import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';

/** A failure told to the model as a tool result, not as a protocol error. */
export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The same object as `structuredContent` and as JSON text, for clients that read only one. */
export function structured(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** The JSON-RPC error of a `tools/call` naming a tool an MCP server does not offer: what `/<name>/mcp` answers, and what an in-process server answers too. */
export function unknownToolProtocolError(tool: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${tool}`);
}
