import type { CallToolResult } from '@modelcontextprotocol/server';
import { eachJsonString, mapJsonStrings, mapResultStrings, resultStrings } from '../../core/plugin/interceptor.js';
import { findSecrets, type Finding } from './rules.js';

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

/** A value now, or a promise of it when a rule had to wait (none of those that read a text does). */
export type MaybePromise<T> = T | Promise<T>;

/** `next` of `value`, at once when it is no promise: a scan then costs no promise, and its interceptor no timer. */
export function then<T, R>(value: MaybePromise<T>, next: (settled: T) => R): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * The secrets in every string of a JSON value, object keys included, at any depth
 * (arguments, a result in all its parts, a child's error, a notification's params), found
 * in one pass of the rules over all of them, and the value rebuilt with them redacted.
 * Base64 payloads (an image's or audio's `data`, a resource's `blob`) are no text and are
 * not read. Undefined when nothing was found (nothing is rebuilt).
 */
export function scanValue<T>(value: T): MaybePromise<Scanned<T> | undefined> {
  const texts: string[] = [];
  eachJsonString(value, (text) => void texts.push(text));
  return then(redactTexts(texts), (redactions) => {
    if (!redactions) return undefined;
    let index = 0;
    return { kinds: redactions.kinds, redacted: mapJsonStrings(value, (text) => redactions.texts[index++] ?? text) };
  });
}

/**
 * A result in all its parts: content blocks of every type (text, embedded resources,
 * resource links), `structuredContent`, `_meta`, and any other field: the interceptor
 * surface's `all` strings of a result, which any plugin can read the same way.
 */
export function scanResult(result: CallToolResult): MaybePromise<Scanned<CallToolResult> | undefined> {
  return then(redactTexts(resultStrings(result, { all: true })), (redactions) =>
    redactions ? { kinds: redactions.kinds, redacted: mapResultStrings(result, (text, index) => redactions.texts[index] ?? text, { all: true }) } : undefined,
  );
}

function redactTexts(texts: string[]): MaybePromise<{ kinds: string[]; texts: string[] } | undefined> {
  // Only a text long enough to hold a secret is read (keys such as `type` and short values are not).
  const read: number[] = [];
  texts.forEach((text, index) => mayHoldSecret(text) && read.push(index));
  if (read.length === 0) return undefined;
  const document = read.map((index) => texts[index]).join(SEPARATOR);
  return then(findSecrets(document), (findings) => (findings.length === 0 ? undefined : redacted(texts, read, findings)));
}

/** `texts` with each finding in the document of the texts `read` (in order, apart by SEPARATOR) replaced. */
function redacted(texts: string[], read: number[], findings: readonly Finding[]): { kinds: string[]; texts: string[] } {
  const starts: number[] = [];
  let at = 0;
  for (const index of read) {
    starts.push(at);
    at += (texts[index] as string).length + SEPARATOR.length;
  }
  const result = [...texts];
  // From the last finding back, so that earlier offsets stay true.
  for (const finding of [...findings].reverse()) {
    let position = starts.length - 1;
    while (position > 0 && (starts[position] as number) > finding.start) position -= 1;
    const index = read[position] as number;
    const base = starts[position] as number;
    const text = result[index] as string;
    const start = finding.start - base;
    const end = Math.min(finding.end - base, (texts[index] as string).length);
    result[index] = `${text.slice(0, start)}[REDACTED:${finding.kind}]${text.slice(end)}`;
  }
  return { kinds: findings.map((finding) => finding.kind), texts: result };
}

/**
 * Shorter texts are not read: no rule's secret is this short (the shortest, an npm
 * `_authToken=` line with a one-character token, is 12).
 */
const MIN_SECRET_LENGTH = 12;
/**
 * What every rule's match holds (rules.ts and secretlint's recommended preset): a run of
 * 16 token characters (every provider's token, a JWT, an AWS secret key, an assigned
 * value), a URL's `://` (Basic auth, database connection strings, webhooks), an npm
 * `_authToken`, a PEM block's `-----BEGIN`, an AWS account id's `account`. A text with
 * none of them (prose, numbers, short names) is not read: the rules cost per character.
 */
const MAY_HOLD_SECRET = /[\w\-+/=.~]{16}|:\/\/|_authToken|-----BEGIN|account/i;

function mayHoldSecret(text: string): boolean {
  return text.length >= MIN_SECRET_LENGTH && MAY_HOLD_SECRET.test(text);
}
