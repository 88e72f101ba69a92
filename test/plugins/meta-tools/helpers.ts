import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { Test } from 'tap';

/** Calls a meta-tool on `/hub`; the result's shape is the SDK's. */
export async function callMeta(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return await client.callTool({ name, arguments: args });
}

/** The structured answer of a successful meta-tool, checked to equal its JSON text block. */
export async function structuredMeta(t: Test, client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = await callMeta(client, name, args);
  t.notOk(result.isError, `${name} succeeded`);
  const [block] = result.content;
  t.same(result.content.length, 1, 'one content block');
  t.same(block?.type === 'text' ? JSON.parse(block.text) : undefined, result.structuredContent, 'the text block is the same object as JSON');
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

/** The text of a meta-tool's tool error (empty when it was not one). */
export async function metaError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await callMeta(client, name, args);
  const [block] = result.content;
  return result.isError === true && block?.type === 'text' ? block.text : '';
}
