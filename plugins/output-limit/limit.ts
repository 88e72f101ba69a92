import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { jsonByteLength } from '../../core/plugin/interceptor.js';

type Block = CallToolResult['content'][number];

/** What `limitResult` did. */
export type Limited = { result: CallToolResult; cutBytes: number } | { refuse: string } | undefined;

/** What the call sent the caller before its result (progress notifications) and what was dropped of it. */
export interface SentBefore {
  bytes: number;
  dropped: number;
}

/** Argument names by which a tool lets a caller ask for the rest of an answer. */
const PAGING = /^(cursor|offset|page|pageToken|start|skip|from|after|startLine|limit|maxResults|max_results|count)$/i;

const encoder = new TextEncoder();

/**
 * A result held to `maxBytes`, counted as the caller gets it: every field as JSON (content
 * blocks with their framing, so a thousand tiny blocks count, `structuredContent`, `_meta`,
 * fields the hub does not know), less what the call's notifications already took
 * (`sent`). Its `structuredContent` is never cut (a client that checks the output schema
 * must never get a broken structure): alone over the cap, the result is refused. `_meta`
 * and unknown fields that do not fit are dropped. The content is kept in order while it
 * fits: the text that crosses the cap is cut at a character boundary, and whatever
 * follows is left out; a notice at the end says how much was cut and how to read on.
 */
export function limitResult(result: CallToolResult, maxBytes: number, tool: Pick<Tool, 'name' | 'inputSchema'>, whose = "this server's limit", sent: SentBefore = { bytes: 0, dropped: 0 }): Limited {
  const cap = Math.max(0, maxBytes - sent.bytes);
  if (sent.dropped === 0 && boundOfTexts(result) <= cap) return undefined;
  const { content, structuredContent, isError, ...others } = result;
  const structuredBytes = structuredContent === undefined ? 0 : jsonBytes(structuredContent);
  if (structuredBytes > cap) {
    return {
      refuse: `the tool's structured result is ${structuredBytes} bytes, over ${whose} of ${maxBytes} bytes${
        sent.bytes > 0 ? ` (of which the call's notifications took ${sent.bytes})` : ''
      }, and a structured result cannot be cut; ask the tool for less`,
    };
  }
  const sizes = content.map(blockBytes);
  const othersBytes = Object.keys(others).length === 0 ? 0 : jsonBytes(others);
  const total = structuredBytes + othersBytes + sizes.reduce((sum, size) => sum + size, 0);
  if (total <= cap && sent.dropped === 0) return undefined;
  const keepOthers = structuredBytes + othersBytes <= cap;
  let budget = cap - structuredBytes - (keepOthers ? othersBytes : 0);
  const kept: Block[] = [];
  let left = 0;
  for (const [index, block] of content.entries()) {
    const size = sizes[index] as number;
    if (size <= budget) {
      kept.push(block);
      budget -= size;
    } else if (block.type === 'text' && budget > EMPTY_TEXT_BYTES) {
      const cut = { ...block, text: cutText(block.text, budget - EMPTY_TEXT_BYTES) };
      kept.push(cut);
      budget -= blockBytes(cut);
    } else left += 1;
  }
  const keptBytes = cap - budget;
  const cutBytes = total - keptBytes;
  kept.push({ type: 'text', text: notice(cutBytes, total, left, keepOthers ? 0 : othersBytes, sent, tool) });
  return { result: { ...(keepOthers && others), content: kept, ...(structuredContent !== undefined && { structuredContent }), ...(isError !== undefined && { isError }) }, cutBytes };
}

/** A child's error message held to `maxBytes` (cut at a character boundary, with a notice); its data is dropped when the message and it do not fit. */
export function limitError(error: { message: string; data?: unknown }, maxBytes: number): { message: string; data?: unknown } | undefined {
  const messageBytes = byteLength(error.message);
  const dataBytes = error.data === undefined ? 0 : jsonBytes(error.data);
  if (messageBytes + dataBytes <= maxBytes) return undefined;
  if (messageBytes <= maxBytes) return { message: `${error.message} [output-limit: the error's data (${dataBytes} bytes) was dropped to keep it within ${maxBytes} bytes]` };
  return {
    message: `${cutText(error.message, maxBytes)}… [output-limit: the error was cut: ${messageBytes - maxBytes} of its message's ${messageBytes} bytes${
      dataBytes > 0 ? ` and its data (${dataBytes} bytes)` : ''
    } were dropped]`,
  };
}

/** What a notification puts on the wire toward the caller: its params as JSON. */
export function notificationBytes(params: unknown): number {
  return jsonBytes(params);
}

/** The framing of a text block around its text: `{"type":"text","text":""}`. */
const EMPTY_TEXT_BYTES = byteLength(JSON.stringify({ type: 'text', text: '' }));

/** The longest start of `text` whose JSON string fits `bytes`, never splitting a character. */
function cutText(text: string, bytes: number): string {
  // encodeInto writes whole characters only; `read` counts the UTF-16 units they took.
  let cut = text.slice(0, encoder.encodeInto(text, new Uint8Array(bytes)).read);
  // Quotes, backslashes and control characters take more than their UTF-8 bytes in JSON.
  for (let over = byteLength(JSON.stringify(cut)) - 2 - bytes; over > 0; over = byteLength(JSON.stringify(cut)) - 2 - bytes) {
    cut = cut.slice(0, Math.max(0, cut.length - over));
    if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  }
  return cut;
}

function notice(cutBytes: number, total: number, left: number, droppedFields: number, sent: SentBefore, tool: Pick<Tool, 'name' | 'inputSchema'>): string {
  const blocks = left === 0 ? '' : ` and ${left} content block${left === 1 ? '' : 's'} left out`;
  const fields = droppedFields === 0 ? '' : ` (its _meta and other fields, ${droppedFields} bytes, among them)`;
  const progress = sent.dropped === 0 ? '' : ` ${sent.dropped} progress notification${sent.dropped === 1 ? ' was' : 's were'} dropped past the limit.`;
  const before = sent.bytes === 0 ? '' : ` The call's notifications took ${sent.bytes} bytes of the limit.`;
  const paging = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {}).filter((name) => PAGING.test(name));
  const more =
    paging.length > 0
      ? `To read the rest, call ${tool.name} again with ${paging.map((name) => `"${name}"`).join(' or ')} set to continue after what you have.`
      : `To get the rest, call ${tool.name} again asking for less at a time.`;
  const cut = cutBytes > 0 ? `this result was cut: ${cutBytes} of its ${total} bytes${blocks}${fields} were dropped to keep it within ${total - cutBytes} bytes.` : 'this result is whole.';
  return `[output-limit: ${cut}${before}${progress} ${more}]`;
}

/** No UTF-16 unit takes more than six bytes in a JSON string (`\u001f`; a character of three UTF-8 bytes is one unit, of four two). */
const MOST_BYTES_PER_UNIT = 6;

/**
 * A bound above what a result of text blocks alone counts for (`blockBytes` of each),
 * found without writing it as JSON (issue 54.4: most results are a few texts far under the
 * cap, and writing them out to learn so cost more than the rest of the plugin); Infinity
 * for any other result, which is then counted exactly. A child's result is not checked
 * against the schema on every road: a `text` that is no string is counted exactly too.
 */
function boundOfTexts(result: CallToolResult): number {
  let bound = 0;
  for (const key in result) if (key !== 'content' && key !== 'isError') return Infinity;
  for (const block of result.content) {
    const text: unknown = block.type === 'text' && Object.keys(block).length === 2 ? block.text : undefined;
    if (typeof text !== 'string') return Infinity;
    bound += EMPTY_TEXT_BYTES + MOST_BYTES_PER_UNIT * text.length;
  }
  return bound;
}

/** What a content block puts into the caller: the block as JSON (its text, base64 data or resource, with its framing). */
function blockBytes(block: Block): number {
  return jsonBytes(block);
}

/** A value's bytes as JSON, counted without writing it (a result may be megabytes); 0 for what JSON leaves out. */
function jsonBytes(value: unknown): number {
  return jsonByteLength(value) ?? 0;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
