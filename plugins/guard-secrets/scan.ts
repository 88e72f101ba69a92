import type { CallToolResult } from '@modelcontextprotocol/server';
import { findSecrets } from './rules.js';

/** What a scan found: the kinds (one per secret) and the value with each secret replaced by `[REDACTED:<kind>]`. */
export interface Scanned<T> {
  kinds: string[];
  redacted: T;
}

/**
 * Keeps texts apart in the one document the rules read (a rule then never matches across
 * two values); a token of any provider has no blank line in it.
 */
const SEPARATOR = '\n\n';

/**
 * The secrets in every string of a JSON value (arguments, `structuredContent`), found in
 * one pass of the rules over all of them, and the value rebuilt with them redacted.
 * Undefined when nothing was found (nothing is rebuilt).
 */
export async function scanValue<T>(value: T): Promise<Scanned<T> | undefined> {
  const texts: string[] = [];
  walk(value, (text) => {
    texts.push(text);
    return text;
  });
  const redactions = await redactTexts(texts);
  if (!redactions) return undefined;
  let index = 0;
  return { kinds: redactions.kinds, redacted: walk(value, (text) => redactions.texts[index++] ?? text) };
}

/**
 * A result's texts the model reads: its text content, the text of embedded resources, and
 * `structuredContent`. Images, audio and blobs are not read (base64 is no text to scan).
 */
export async function scanResult(result: CallToolResult): Promise<Scanned<CallToolResult> | undefined> {
  const texts: string[] = [];
  const content = result.content.map((block) => {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) texts.push(block.resource.text);
    return block;
  });
  const structuredAt = texts.length;
  if (result.structuredContent !== undefined) walk(result.structuredContent, (text) => (texts.push(text), text));
  const redactions = await redactTexts(texts);
  if (!redactions) return undefined;
  let index = 0;
  const redactedContent = content.map((block) => {
    if (block.type === 'text') return { ...block, text: redactions.texts[index++] as string };
    if (block.type === 'resource' && 'text' in block.resource) return { ...block, resource: { ...block.resource, text: redactions.texts[index++] as string } };
    return block;
  });
  index = structuredAt;
  const structuredContent = result.structuredContent === undefined ? undefined : walk(result.structuredContent, () => redactions.texts[index++] as string);
  return { kinds: redactions.kinds, redacted: { ...result, content: redactedContent, ...(structuredContent !== undefined && { structuredContent }) } };
}

async function redactTexts(texts: string[]): Promise<{ kinds: string[]; texts: string[] } | undefined> {
  if (texts.length === 0) return undefined;
  const document = texts.join(SEPARATOR);
  const findings = await findSecrets(document);
  if (findings.length === 0) return undefined;
  const starts: number[] = [];
  let at = 0;
  for (const text of texts) {
    starts.push(at);
    at += text.length + SEPARATOR.length;
  }
  const redacted = [...texts];
  // From the last finding back, so that earlier offsets stay true.
  for (const finding of [...findings].reverse()) {
    let index = starts.length - 1;
    while (index > 0 && (starts[index] as number) > finding.start) index -= 1;
    const base = starts[index] as number;
    const text = redacted[index] as string;
    const start = finding.start - base;
    const end = Math.min(finding.end - base, (texts[index] as string).length);
    redacted[index] = `${text.slice(0, start)}[REDACTED:${finding.kind}]${text.slice(end)}`;
  }
  return { kinds: findings.map((finding) => finding.kind), texts: redacted };
}

/** Every string of a JSON value, in one fixed order, replaced by what `each` gives (objects and arrays copied only when walked). */
function walk<T>(value: T, each: (text: string) => string): T {
  if (typeof value === 'string') return each(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => walk(item, each)) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = walk(item, each);
    return copy as T;
  }
  return value;
}
