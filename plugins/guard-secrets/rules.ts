import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';

/** The part of secretlint's rule surface (@secretlint/types) the rules below are driven through. */
interface SourceCode {
  content: string;
  filePath: string;
  ext: string;
  contentType: 'text';
}
type Messages = Record<string, ((props?: unknown) => string) | Record<string, (props?: unknown) => string>>;
interface RuleContext {
  sharedOptions: Record<string, never>;
  createTranslator(messages: Messages): (messageId: string, props?: unknown) => { message: string; messageId: string; data: unknown };
  report(descriptor: { range: readonly [number, number]; message: { data?: unknown } }): void;
  ignore(): void;
}
interface RuleCreator {
  meta: { id: string };
  create(context: RuleContext, options: Record<string, never>): { file?: (source: SourceCode) => void | Promise<void> };
}

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
export const SECRET_KINDS: readonly string[] = [...scannerRules().map((rule) => kindOf(rule.meta.id)), 'jwt', 'generic-assignment'];

/**
 * The preset's scanner rules. Not `filter-comments`: it lets the text scanned switch the
 * rules off (`secretlint-disable`), and here the text is a child's, not the operator's.
 */
function scannerRules(): RuleCreator[] {
  return (recommendedRules as unknown as RuleCreator[]).filter((rule) => kindOf(rule.meta.id) !== 'filter-comments');
}

interface Report {
  ruleId: string;
  range: readonly [number, number];
  data: unknown;
}

/**
 * What each rule's patterns cannot match without, read from the preset's source as
 * installed (the text is named `tool-call.txt`: no rule's package.json, .npmrc, .json or
 * .p12 branch runs), so that a rule whose word is not in the text is not run, as
 * gitleaks' keywords skip rules (issue 54.4: a 1 KB text of records ran thirteen rules'
 * patterns to find nothing). Each test is a superset of its rule's patterns, case
 * included. A rule not named here always runs: a rule a later preset adds is never
 * skipped. may-hold-secret.test.ts finds a secret of every named rule through it.
 */
const RULE_NEEDS: Readonly<Record<string, (content: string) => boolean>> = {
  // enableIDScanRule is off by default: only the `secret_access_key = ...` assignment.
  aws: (content) => /secret/i.test(content),
  privatekey: (content) => content.includes('PRIVATE KEY'),
  npm: (content) => content.includes('npm_'),
  // `http://user:password@host` and the like.
  basicauth: (content) => content.includes('://') && content.includes('@'),
  slack: (content) => /xox[bpaor]-|xapp-|hooks\.slack\.com/i.test(content),
  sendgrid: (content) => content.includes('SG.'),
  shopify: (content) => content.includes('shp'),
  github: (content) => /gh[pousr]_|github_pat_/.test(content),
  openai: (content) => content.includes('sk-'),
  anthropic: (content) => content.includes('sk-ant-'),
  linear: (content) => content.includes('lin_api_'),
  '1password': (content) => content.includes('ops_'),
  'database-connection-string': (content) => /mongodb|mysql|postgres/i.test(content),
};

interface RuleHandler {
  needs: ((content: string) => boolean) | undefined;
  handler: ReturnType<RuleCreator['create']>;
}

/**
 * The preset's rules, made once and used for scan after scan. secretlint's `lintSource`
 * builds every rule, its context and its message translator again for each text (issue
 * 54.4: the most of guard-secrets' cost per call); its API has no linter to keep, so the
 * rules' own surface (`create(context, options)`, then `file(source)`) is driven here.
 * Every rule that reads a text answers at once; one that answers with a promise (a rule
 * reading a file) is waited for, and the scan is then a promise too, so concurrent scans
 * each take a set of rules of their own from a pool.
 */
class Linter {
  reports: Report[] = [];
  readonly #handlers: RuleHandler[];

  constructor() {
    this.#handlers = scannerRules().map((rule) => ({ needs: RULE_NEEDS[kindOf(rule.meta.id)], handler: rule.create(this.#context(rule.meta.id), {}) }));
  }

  lint(content: string): Report[] | Promise<Report[]> {
    this.reports = [];
    return this.#lintFrom({ content, filePath: 'tool-call.txt', ext: '.txt', contentType: 'text' }, 0);
  }

  #lintFrom(source: SourceCode, first: number): Report[] | Promise<Report[]> {
    for (let index = first; index < this.#handlers.length; index++) {
      const { needs, handler } = this.#handlers[index] as RuleHandler;
      if (needs && !needs(source.content)) continue;
      const pending = handler.file?.(source);
      if (pending) return pending.then(() => this.#lintFrom(source, index + 1));
    }
    return this.reports;
  }

  #context(ruleId: string): RuleContext {
    return {
      sharedOptions: {},
      createTranslator: (messages) => (messageId, props) => {
        const handler = messages[messageId];
        const format = typeof handler === 'function' ? handler : handler?.en;
        return { message: format ? format(props ?? {}) : messageId, messageId, data: props };
      },
      report: (descriptor) => void this.reports.push({ ruleId, range: descriptor.range, data: descriptor.message.data }),
      ignore: () => undefined,
    };
  }
}

const idle: Linter[] = [];

function lint(text: string): Report[] | Promise<Report[]> {
  const linter = idle.pop() ?? new Linter();
  let reports: Report[] | Promise<Report[]>;
  try {
    reports = linter.lint(text);
  } catch (error) {
    idle.push(linter);
    throw error;
  }
  if (!(reports instanceof Promise)) {
    idle.push(linter);
    return reports;
  }
  return reports.finally(() => idle.push(linter));
}

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
export function findSecrets(text: string): Finding[] | Promise<Finding[]> {
  const reports = lint(text);
  return reports instanceof Promise ? reports.then((settled) => findingsIn(text, settled)) : findingsIn(text, reports);
}

function findingsIn(text: string, reports: readonly Report[]): Finding[] {
  const findings: Finding[] = [];
  for (const message of reports) {
    const kind = kindOf(message.ruleId);
    add(findings, { ...cutAtDelimiter(text, spanOf(text, message.range, message.data), kind), kind });
  }
  for (const match of matchesOf(JWT, text)) add(findings, { start: match.index, end: match.index + match[0].length, kind: 'jwt' });
  for (const match of matchesOf(ASSIGNMENT, text)) {
    const value = match[1] as string;
    if (entropy(value) < MIN_ENTROPY) continue;
    const start = match.index + match[0].length - value.length;
    add(findings, { start, end: start + value.length, kind: 'generic-assignment' });
  }
  return findings.sort((a, b) => a.start - b.start);
}

/**
 * Every match of a global `pattern` in `text`, read with the pattern itself: `matchAll`
 * copies its pattern first, which cost more than the search on a text with no match (most).
 * Safe to share: the search runs to its end with no await between.
 */
function matchesOf(pattern: RegExp, text: string): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) found.push(match);
  return found;
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
