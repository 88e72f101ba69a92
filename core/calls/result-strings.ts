import type { CallToolResult } from '@modelcontextprotocol/server';

/** Which strings of a result: those a model reads (the default), or all of them. */
export interface ResultStringsOptions {
  /**
   * Every string of the result, as a guardrail must read it: object keys, `_meta`, resource
   * links and any other field included (see `mapJsonStrings`). Off, only what a model reads:
   * what an interceptor that rewrites prose (translates, trims) may change without breaking
   * a key, a link or `_meta`.
   */
  all?: boolean;
}

/**
 * The strings of a result in one fixed order: by default each text block's text, each
 * embedded resource's text, then every string of `structuredContent` (at any depth, keys
 * in their order); with `all`, every string of the result, keys included. Images, audio
 * and blobs are left out: base64 is no text. An interceptor that reads them all at once
 * (one pass of its rules) takes this list, then gives `mapResultStrings` what each became
 * by its position.
 */
export function resultStrings(result: CallToolResult, options: ResultStringsOptions = {}): string[] {
  const texts: string[] = [];
  const push = (text: string): void => void texts.push(text);
  if (options.all === true) eachJsonString(result, push);
  else mapResultStrings(result, (text) => (push(text), text), options);
  return texts;
}

/**
 * Every string `mapJsonStrings` hands its `map`, in the same order, read without copying
 * the value: a guardrail reads every call's strings and rewrites almost none.
 */
export function eachJsonString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') return visit(value);
  if (Array.isArray(value)) {
    for (const item of value) eachJsonString(item, visit);
  } else if (typeof value === 'object' && value !== null) {
    const holder = value as Record<string, unknown>;
    for (const key of Object.keys(holder)) {
      visit(key);
      if (!isPayload(holder, key)) eachJsonString(holder[key], visit);
    }
  }
}

/**
 * The result with every string `resultStrings` lists replaced by what `map` gives (with
 * the string's position in that list): what an interceptor that rewrites text (redacts,
 * translates, trims) returns as its `{ result }`. The result is copied where a string
 * is replaced; everything else (images, and by default `_meta` and `isError`) is kept as it was.
 */
export function mapResultStrings(result: CallToolResult, map: (text: string, index: number) => string, options: ResultStringsOptions = {}): CallToolResult {
  let index = 0;
  const next = (text: string) => map(text, index++);
  if (options.all === true) return mapJsonStrings(result, next);
  const content = result.content.map((block) => {
    if (block.type === 'text') return { ...block, text: next(block.text) };
    if (block.type === 'resource' && 'text' in block.resource) return { ...block, resource: { ...block.resource, text: next(block.resource.text) } };
    return block;
  });
  const mapped: CallToolResult = { ...result, content };
  if (result.structuredContent !== undefined) mapped.structuredContent = mapValues(result.structuredContent, next);
  return mapped;
}

/**
 * Every string of a JSON value (arguments, a result, an error's data, a notification's
 * params), object keys before their values, at any depth, in one fixed order, replaced by
 * what `map` gives; objects and arrays are copied as they are walked. Base64 payloads of
 * MCP content (an image's or audio's `data`, a resource's `blob`) are no text and are kept.
 * A key `map` makes the same as another keeps both values apart by a number (`key (2)`).
 */
export function mapJsonStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapJsonStrings(item, map)) as T;
  if (typeof value === 'object' && value !== null) {
    const holder = value as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(holder)) {
      const mappedKey = map(key);
      let name = mappedKey;
      for (let n = 2; name !== key && Object.hasOwn(copy, name); n++) name = `${mappedKey} (${n})`;
      copy[name] = isPayload(holder, key) ? item : mapJsonStrings(item, map);
    }
    return copy as T;
  }
  return value;
}

/** Base64 payloads of MCP content: an image's or audio's `data`, an embedded resource's `blob`. */
function isPayload(holder: Record<string, unknown>, key: string): boolean {
  return key === 'blob' || (key === 'data' && (holder.type === 'image' || holder.type === 'audio'));
}

/** Every string value of a JSON value replaced (keys kept): what a model reads of `structuredContent`. */
function mapValues<T>(value: T, each: (text: string) => string): T {
  if (typeof value === 'string') return each(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapValues(item, each)) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = mapValues(item, each);
    return copy as T;
  }
  return value;
}
