import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended, rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';

// secretlint's profiler is always on under Node: every scan adds marks to the process's
// performance timeline and to the profiler's own list, which it searches on each mark, so
// each scan cost more than the one before (7 ms of CPU per call after 200 calls, 50 ms after
// 1,200) and the memory was never given back. The hub never reads the profile: no marks.
secretLintProfiler.mark = () => undefined;

/** One secret found in a text: where it is and its kind (a short, fixed word: a metrics label). */
export interface Finding {
  start: number;
  end: number;
  kind: string;
}

const RULE_PREFIX = '@secretlint/secretlint-rule-';

/**
 * The kinds secretlint's recommended preset reports, by rule (`aws`, `github`, `privatekey`,
 * `database-connection-string`, ...), plus the two the preset has no rule for.
 */
export const SECRET_KINDS: readonly string[] = [
  ...recommendedRules.map((rule) => kindOf(rule.meta.id)).filter((kind) => kind !== 'filter-comments'),
  'jwt',
  'generic-assignment',
];

const CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/**
 * Written here because the preset has no rule for them: a JSON Web Token (three base64url
 * parts, the first two JSON objects), and a high-entropy value assigned to a name that says
 * it is a secret (`password=...`, `"api_key": "..."`), as detect-secrets' keyword and
 * entropy plugins find them. Only the value is reported, never the name.
 */
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const ASSIGNMENT = /(?:secret|token|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth)["']?\s*[:=]\s*["']?([A-Za-z0-9+/_\-.~=]{16,})/gi;
/** Bits per character above which an assigned value is taken for a secret rather than a word or a path. */
const MIN_ENTROPY = 3.5;

/**
 * The secrets in `text`: secretlint's recommended rules (maintained by the secretlint
 * project, see README), then the two above where they do not overlap what it found.
 */
export async function findSecrets(text: string): Promise<Finding[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'tool-call.txt', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  const findings: Finding[] = [];
  for (const message of result.messages) {
    const kind = kindOf(message.ruleId);
    add(findings, { ...cutAtDelimiter(text, spanOf(text, message.range, message.data), kind), kind });
  }
  for (const match of text.matchAll(JWT)) add(findings, { start: match.index, end: match.index + match[0].length, kind: 'jwt' });
  for (const match of text.matchAll(ASSIGNMENT)) {
    const value = match[1] as string;
    if (entropy(value) < MIN_ENTROPY) continue;
    const start = match.index + match[0].length - value.length;
    add(findings, { start, end: start + value.length, kind: 'generic-assignment' });
  }
  return findings.sort((a, b) => a.start - b.start);
}

/**
 * Where the secret a rule reported is: the value it names in its message data, found from
 * the reported start (a rule may report the start of the whole assignment with the length
 * of the value, which would leave the value's end unredacted), else the reported range.
 */
function spanOf(text: string, range: readonly [number, number], data: unknown): { start: number; end: number } {
  for (const value of Object.values((data ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string' || value.length < 8) continue;
    const at = text.indexOf(value, range[0]);
    if (at !== -1 && at <= range[1]) return { start: at, end: at + value.length };
  }
  return { start: range[0], end: range[1] };
}

/**
 * What cannot be part of a token, key or connection string as a one-line secret appears in
 * text: a quote, a blank, a comma, a brace, an angle bracket, a backslash (of an escaped
 * quote). Some rules' patterns run on to the end of the line (database connection strings
 * take `\S+`), which in compact JSON is the rest of the document: a redaction replaces
 * the secret, never the data around it.
 */
const NOT_IN_SECRET = /["'`\s,{}<>\\]/;
/** Kinds whose secret is a block that spans lines and blanks (a PEM key, a whole credentials file): kept as reported. */
const BLOCK_KINDS = new Set(['privatekey', 'gcp']);

/** `span` ended at the first character after its start that cannot belong to a secret of `kind`. */
function cutAtDelimiter(text: string, span: { start: number; end: number }, kind: string): { start: number; end: number } {
  if (BLOCK_KINDS.has(kind)) return span;
  const within = text.slice(span.start + 1, span.end).search(NOT_IN_SECRET);
  return within === -1 ? span : { start: span.start, end: span.start + 1 + within };
}

function add(findings: Finding[], finding: Finding): void {
  if (findings.some((other) => finding.start < other.end && other.start < finding.end)) return;
  findings.push(finding);
}

function kindOf(ruleId: string): string {
  return ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
}

/** Shannon entropy of `value`, in bits per character. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
