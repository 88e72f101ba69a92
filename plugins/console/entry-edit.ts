import { isDeepStrictEqual } from 'node:util';
import { createTwoFilesPatch } from 'diff';
import { applyEdits, modify, parse, type FormattingOptions, type ParseError } from 'jsonc-parser';

/** The entries of `mcpServers` as written (no `${VAR}` expanded), or undefined when the text does not parse as a JSON object. */
export function writtenEntries(text: string): Record<string, Record<string, unknown>> | undefined {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { disallowComments: true, allowTrailingComma: false }) as unknown;
  if (errors.length > 0 || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const servers = (value as { mcpServers?: unknown }).mcpServers;
  if (servers === undefined) return {};
  return typeof servers === 'object' && servers !== null && !Array.isArray(servers) ? (servers as Record<string, Record<string, unknown>>) : undefined;
}

/**
 * `text` with server `name`'s entry replaced by `entry` (added when new; removed when
 * undefined) by jsonc-parser's edits: only that entry's text changes; the layout, key
 * order and every other entry stay byte for byte. The new entry keeps the key order of
 * the one it replaces, new keys after; it is indented as the file is.
 */
export function withEntry(text: string, name: string, entry: Record<string, unknown> | undefined): string {
  const base = text.trim() === '' ? '{}\n' : text;
  const before = writtenEntries(base)?.[name];
  const ordered = entry && before ? orderedLike(entry, before) : entry;
  const edits = modify(base, ['mcpServers', name], ordered, { formattingOptions: formattingOf(base) });
  return applyEdits(base, edits);
}

/** The keys whose values differ between two entries (added, removed or changed), sorted: what the log names, never the values. */
export function changedKeys(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((key) => !isDeepStrictEqual(before?.[key], after?.[key])).sort();
}

/** A unified diff between two texts of the config file, for a conflict the operator resolves. */
export function configDiff(file: string, read: string, now: string): string {
  return createTwoFilesPatch(`${file} (as the page read it)`, `${file} (on disk now)`, read, now, undefined, undefined, { context: 3 });
}

function orderedLike(entry: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(before)) if (key in entry) ordered[key] = entry[key];
  for (const [key, value] of Object.entries(entry)) if (!(key in ordered)) ordered[key] = value;
  return ordered;
}

/** The file's own indentation and line ends, so a new entry reads like the others. */
function formattingOf(text: string): FormattingOptions {
  const indented = /\n([ \t]+)\S/.exec(text)?.[1];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indented?.length ?? 2, eol };
}
