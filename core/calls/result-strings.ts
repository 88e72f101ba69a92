import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * The strings of a result a model reads, in one fixed order: each text block's text, each
 * embedded resource's text, then every string of `structuredContent` (at any depth, keys
 * in their order). Images, audio and blobs are left out: base64 is no text. An
 * interceptor that reads them all at once (one pass of its rules) takes this list, then
 * gives `mapResultStrings` what each became by its position.
 */
export function resultStrings(result: CallToolResult): string[] {
  const texts: string[] = [];
  mapResultStrings(result, (text) => (texts.push(text), text));
  return texts;
}

/**
 * The result with every string `resultStrings` lists replaced by what `map` gives (with
 * the string's position in that list): what an interceptor that rewrites text (redacts,
 * translates, trims) returns as its `{ result }`. The result is copied where a string
 * is replaced; everything else (images, `_meta`, `isError`) is kept as it was.
 */
export function mapResultStrings(result: CallToolResult, map: (text: string, index: number) => string): CallToolResult {
  let index = 0;
  const next = (text: string) => map(text, index++);
  const content = result.content.map((block) => {
    if (block.type === 'text') return { ...block, text: next(block.text) };
    if (block.type === 'resource' && 'text' in block.resource) return { ...block, resource: { ...block.resource, text: next(block.resource.text) } };
    return block;
  });
  const mapped: CallToolResult = { ...result, content };
  if (result.structuredContent !== undefined) mapped.structuredContent = mapJsonStrings(result.structuredContent, next);
  return mapped;
}

/** Every string of a JSON value replaced by what `each` gives (objects and arrays copied as they are walked). */
function mapJsonStrings<T>(value: T, each: (text: string) => string): T {
  if (typeof value === 'string') return each(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapJsonStrings(item, each)) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = mapJsonStrings(item, each);
    return copy as T;
  }
  return value;
}
