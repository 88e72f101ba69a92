import type { CallToolResult, Tool } from '@modelcontextprotocol/server';

type Block = CallToolResult['content'][number];

/** What `limitResult` did. */
export type Limited = { result: CallToolResult; cutBytes: number } | { refuse: string } | undefined;

/** Argument names by which a tool lets a caller ask for the rest of an answer. */
const PAGING = /^(cursor|offset|page|pageToken|start|skip|from|after|startLine|limit|maxResults|max_results|count)$/i;

const encoder = new TextEncoder();

/**
 * A result held to `maxBytes`. Its `structuredContent` is never cut (a client that
 * checks the output schema must never get a broken structure): alone over the cap, the
 * result is refused. Otherwise the content is kept in order while it fits: the text that
 * crosses the cap is cut at a character boundary, and whatever follows (text, images,
 * audio, embedded resources, which cannot be cut) is left out; a notice at the end says
 * how much was cut and how to read on where the tool takes a paging argument.
 */
export function limitResult(result: CallToolResult, maxBytes: number, tool: Pick<Tool, 'name' | 'inputSchema'>, whose = "this server's limit"): Limited {
  const structuredBytes = result.structuredContent === undefined ? 0 : byteLength(JSON.stringify(result.structuredContent));
  if (structuredBytes > maxBytes) {
    return { refuse: `the tool's structured result is ${structuredBytes} bytes, over ${whose} of ${maxBytes} bytes, and a structured result cannot be cut; ask the tool for less` };
  }
  const sizes = result.content.map(blockBytes);
  const total = structuredBytes + sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxBytes) return undefined;
  let budget = maxBytes - structuredBytes;
  const kept: Block[] = [];
  let left = 0;
  for (const [index, block] of result.content.entries()) {
    const size = sizes[index] as number;
    if (size <= budget) {
      kept.push(block);
      budget -= size;
    } else if (block.type === 'text' && budget > 0) {
      kept.push({ ...block, text: cutText(block.text, budget) });
      budget = 0;
    } else left += 1;
  }
  const keptBytes = maxBytes - structuredBytes - budget;
  const cutBytes = total - structuredBytes - keptBytes;
  kept.push({ type: 'text', text: notice(cutBytes, total, left, tool) });
  return { result: { ...result, content: kept }, cutBytes };
}

/** The longest start of `text` within `bytes` of UTF-8, never splitting a character. */
function cutText(text: string, bytes: number): string {
  // encodeInto writes whole characters only; `read` counts the UTF-16 units they took.
  const { read } = encoder.encodeInto(text, new Uint8Array(bytes));
  return text.slice(0, read);
}

function notice(cutBytes: number, total: number, left: number, tool: Pick<Tool, 'name' | 'inputSchema'>): string {
  const blocks = left === 0 ? '' : ` and ${left} content block${left === 1 ? '' : 's'} (images, audio or resources that cannot be cut) left out`;
  const paging = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {}).filter((name) => PAGING.test(name));
  const more =
    paging.length > 0
      ? `To read the rest, call ${tool.name} again with ${paging.map((name) => `"${name}"`).join(' or ')} set to continue after what you have.`
      : `To get the rest, call ${tool.name} again asking for less at a time.`;
  return `[output-limit: this result was cut: ${cutBytes} of its ${total} bytes${blocks} were dropped to keep it within ${total - cutBytes} bytes. ${more}]`;
}

/** What a content block puts into the caller: its text in UTF-8, its base64 data as sent, an embedded resource's text or blob. */
function blockBytes(block: Block): number {
  switch (block.type) {
    case 'text':
      return byteLength(block.text);
    case 'image':
    case 'audio':
      return block.data.length;
    case 'resource':
      return 'text' in block.resource ? byteLength(block.resource.text) : block.resource.blob.length;
    default:
      return byteLength(JSON.stringify(block));
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
