import { applyEdits, modify } from 'jsonc-parser';
import { writtenEntries } from './entry-edit.js';

/**
 * What the console sends in place of a secret written literally in mcp.json, and what
 * a page sends back to mean "keep the file's value": the value itself never leaves the hub.
 */
export const SECRET_KEPT = '[secret kept]';
export const SECRET_NOTE = 'written literally in mcp.json: move it to ${VAR} or a _FILE path';

export interface SecretNote {
  /** The path of the value in the entry, keys joined with "." (e.g. `env.API_KEY`, `headers.Authorization`). */
  key: string;
  note: string;
}

// A key that names a secret; keys naming a file, path, URL or variable hold where the secret is, not the secret.
const SECRET_NAME = /secret|token|passw(or)?d|pwd|key|authori[sz]ation|credential|cookie|bearer/i;
const PATH_NAME = /(file|path|url|uri|endpoint|env)$/i;
// What a value may hold around `${VAR}` references and still show nothing: an auth scheme.
const REFERENCE = /\$\{[^}]*\}/;
const REFERENCES = /\$\{[^}]*\}/g;
const SCHEME_ONLY = /^\s*((bearer|basic|token)\s*)?$/i;
const SCHEME_VALUE = /^\s*(bearer|basic|token)\s+\S/i;

/** Whether the string `value` under key `name` is a secret written literally (not only `${VAR}` references, not a `_FILE` path). */
function isLiteralSecret(name: string, value: string): boolean {
  if (value === '' || value === SECRET_KEPT || PATH_NAME.test(name)) return false;
  if (!SECRET_NAME.test(name) && !SCHEME_VALUE.test(value)) return false;
  return !(REFERENCE.test(value) && SCHEME_ONLY.test(value.replace(REFERENCES, '')));
}

/** The paths of the literal secrets in `value` (an entry), at any depth. */
function secretPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => secretPaths(item, [...path, index]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (typeof inner === 'string' ? (isLiteralSecret(key, inner) ? [[...path, key]] : []) : secretPaths(inner, [...path, key])));
}

function at(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((inner, key) => (typeof inner === 'object' && inner !== null ? (inner as Record<string | number, unknown>)[key] : undefined), value);
}

function withValue<T>(value: T, path: (string | number)[], replacement: unknown): T {
  const copy = structuredClone(value);
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1] as string | number] = replacement;
  return copy;
}

/** The entry as the console may show it: each literal secret replaced by SECRET_KEPT, and a note for each. */
export function redactedEntry(entry: Record<string, unknown>): { entry: Record<string, unknown>; secrets: SecretNote[] } {
  const paths = secretPaths(entry);
  const redacted = paths.reduce((inner, path) => withValue(inner, path, SECRET_KEPT), entry);
  return { entry: redacted, secrets: paths.map((path) => ({ key: path.join('.'), note: SECRET_NOTE })) };
}

/** The config text with every literal secret of every server replaced by SECRET_KEPT (for a difference shown to the page). */
export function redactedText(text: string): string {
  const entries = writtenEntries(text);
  if (entries === undefined) return '(the file does not parse as it is: its text is not shown, as it may hold a secret)\n';
  let redacted = text;
  for (const [name, entry] of Object.entries(entries)) {
    for (const path of secretPaths(entry)) redacted = applyEdits(redacted, modify(redacted, ['mcpServers', name, ...path], SECRET_KEPT, {}));
  }
  return redacted;
}

/**
 * The entry a page sent with each SECRET_KEPT put back to the value at the same place
 * in `before` (the file's entry of that name), so that only what the operator changed
 * is written; or the key of a SECRET_KEPT with nothing to keep (a copy, a moved key).
 */
export function restoredEntry(entry: Record<string, unknown>, before: Record<string, unknown> | undefined): { entry: Record<string, unknown> } | { missing: string } {
  let restored = entry;
  for (const path of keptPaths(entry)) {
    const original = at(before, path);
    if (typeof original !== 'string') return { missing: path.join('.') };
    restored = withValue(restored, path, original);
  }
  return { entry: restored };
}

function keptPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value === SECRET_KEPT) return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => keptPaths(item, [...path, index]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => keptPaths(inner, [...path, key]));
}

// In a line of text: an auth scheme and its credential, and `name=value` / `name: value` where the name says secret.
const SCHEME_IN_TEXT = /\b(bearer|basic|token)(\s+)([A-Za-z0-9._~+/=-]{4,})/gi;
const NAMED_IN_TEXT =
  /\b([\w.-]*(?:secret|token|passw(?:or)?d|pwd|api[_-]?key|authori[sz]ation|credential|cookie)[\w.-]*)(\s*[=:]\s*)(?!\[secret kept\]|(?:bearer|basic|token)\s)("[^"]*"|'[^']*'|[^\s,;&]+)/gi;

/**
 * What a child wrote to stderr (a failed test's tail, its start error) as the page may show
 * it: every literal secret of its entry, and every value a secret-named key of it takes from
 * the environment (`${VAR}`), replaced by SECRET_KEPT wherever it appears; and anything that
 * reads as a credential (`Bearer <value>`, `password=<value>`) masked too.
 */
export function redactedOutput(text: string, entry: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>): string {
  const values = new Set<string>();
  for (const path of secretPaths(entry)) values.add(String(at(entry, path)));
  for (const path of secretNamedPaths(entry)) {
    for (const [, name] of String(at(entry, path)).matchAll(/\$\{([^}:]*)[^}]*\}/g)) {
      const value = env[name ?? ''];
      if (value !== undefined && value.length >= 4) values.add(value);
    }
  }
  let masked = text;
  // Longest first, so that a value holding another is masked whole.
  for (const value of [...values].sort((a, b) => b.length - a.length)) masked = masked.split(value).join(SECRET_KEPT);
  return masked
    .replace(SCHEME_IN_TEXT, (_found, scheme: string, space: string) => `${scheme}${space}${SECRET_KEPT}`)
    .replace(NAMED_IN_TEXT, (_found, name: string, separator: string) => `${name}${separator}${SECRET_KEPT}`);
}

/** The paths of the strings under a secret-named key (literal or `${VAR}`), at any depth. */
function secretNamedPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => secretNamedPaths(item, [...path, index]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'string' ? (SECRET_NAME.test(key) && !PATH_NAME.test(key) ? [[...path, key]] : []) : secretNamedPaths(inner, [...path, key]),
  );
}
