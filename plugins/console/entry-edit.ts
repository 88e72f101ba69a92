import { isDeepStrictEqual } from 'node:util';
import { createTwoFilesPatch } from 'diff';
import { applyEdits, format, modify, parse, type FormattingOptions, type ParseError } from 'jsonc-parser';

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
 * undefined) by jsonc-parser's edits: an entry edited changes only the text of the keys
 * whose values changed (added, removed or replaced; new keys after the others), so an
 * untouched key, a secret the console never sent among them, stays byte for byte, as do
 * the layout and every other entry. A new entry is indented as the file is.
 */
export function withEntry(text: string, name: string, entry: Record<string, unknown> | undefined): string {
  const base = text.trim() === '' ? '{}\n' : text;
  const before = writtenEntries(base)?.[name];
  const formattingOptions = formattingOf(base);
  if (entry === undefined || before === undefined) return applyEdits(base, modify(base, ['mcpServers', name], entry, { formattingOptions }));
  return changedKeys(before, entry).reduce((edited, key) => withValueAt(edited, ['mcpServers', name, key], entry[key], formattingOptions), base);
}

/**
 * `text` with the value at `path` set (or removed), only the new text formatted: jsonc-parser
 * formats the whole enclosing object when it inserts with formatting options, which would
 * rewrite the keys beside it.
 */
function withValueAt(text: string, path: string[], value: unknown, formattingOptions: FormattingOptions): string {
  const edits = modify(text, path, value, {});
  const edited = applyEdits(text, edits);
  const [only] = edits;
  if (edits.length !== 1 || only === undefined || only.content === '') return edited;
  return applyEdits(edited, format(edited, { offset: only.offset, length: only.content.length }, formattingOptions));
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

/** The file's own indentation and line ends, so a new entry reads like the others. */
function formattingOf(text: string): FormattingOptions {
  const indented = /\n([ \t]+)\S/.exec(text)?.[1];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indented?.length ?? 2, eol };
}
