import { SERVER_INFO_META_KEY, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/client';
import type { ResultRepair } from './tolerant-transport.js';

/**
 * The commonest answer to `tools/call`, read by hand (no schema library on the hot path):
 * a result response whose result, once repaired and stripped of what only its revision's
 * wire carries (`unwrap`, the ChildWire's `plainResult`), is text content and nothing else
 * but an `isError` flag and the server's plain identity in `_meta`. Undefined for any other answer, which the SDK's codec then reads,
 * so that every refusal stays the SDK's own (`PlainCallClient.decodeToolAnswer`). For an
 * answer it reads, the result is the one the SDK's codec returns; a test holds the two to
 * that on every revision.
 */
export function plainToolAnswer(message: JSONRPCMessage, repair: ResultRepair, unwrap: ResultRepair): CallToolResult | undefined {
  const given = resultOf(message);
  if (given === undefined) return undefined;
  const result = unwrap(repair(given) ?? given);
  if (result === undefined) return undefined;
  for (const key in result) if (key !== 'content' && key !== 'isError' && key !== '_meta') return undefined;
  if ('isError' in result && typeof result.isError !== 'boolean') return undefined;
  const { content } = result;
  return Array.isArray(content) && content.every(isTextBlock) ? (result as CallToolResult) : undefined;
}

/**
 * The result of a message that is certainly a JSON-RPC result response as the SDK's
 * schema has it (exactly `jsonrpc`, an integer or string `id` and an object `result`
 * whose `_meta`, if any, is plain); undefined when it is not, or when only the schema can tell.
 */
export function resultOf(message: unknown): Record<string, unknown> | undefined {
  if (!isObject(message) || message.jsonrpc !== '2.0' || !isObject(message.result)) return undefined;
  const { id } = message;
  if (typeof id !== 'string' && !Number.isInteger(id)) return undefined;
  let keys = 0;
  for (const _ in message) keys += 1;
  return keys === 3 && isPlainMeta(message.result._meta) ? message.result : undefined;
}

/**
 * A result's `_meta` that every schema reads as it is: none, or the server's identity alone
 * as a name, a version and perhaps a title (what a 2026-07-28 server states on every result).
 */
function isPlainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  let keys = 0;
  for (const _ in meta) keys += 1;
  const identity = meta[SERVER_INFO_META_KEY];
  if (keys !== 1 || !isObject(identity) || typeof identity.name !== 'string' || typeof identity.version !== 'string') return false;
  for (const key in identity) if (key !== 'name' && key !== 'version' && !(key === 'title' && typeof identity.title === 'string')) return false;
  return true;
}

function isTextBlock(block: unknown): boolean {
  if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
  let keys = 0;
  for (const _ in block) keys += 1;
  return keys === 2;
}

function isObject(value: unknown): value is Record<string, unknown> & { result?: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
