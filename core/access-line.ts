import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';

/** A value of the access record's line (access-log.ts); undefined ones are left out, as pino leaves them out. */
export type AccessLineValue = string | number | boolean | undefined;

/** Writes one access record's line: the values of the writer's keys, in their order; the message is `request`. */
export type AccessLineWriter = (level: 'info' | 'debug', values: readonly AccessLineValue[]) => void;

const {
  lsCacheSym,
  levelValSym,
  timeSym,
  chindingsSym,
  endSym,
  streamSym,
  mixinSym,
  hooksSym,
  formattersSym,
  messageKeySym,
  nestedKeySym,
  serializersSym,
  stringifiersSym,
  wildcardFirstSym,
  needsMetadataGsym,
} = pino.symbols;
/** Not in pino's typings, but in its symbols since 8.x. */
const msgPrefixSym = (pino.symbols as Record<string, symbol>).msgPrefixSym;
const LEVELS = { info: 30, debug: 20 } as const;

/**
 * The access record's line written as pino writes it (the logger's level prefix, time,
 * bindings and line end, the same keys and the same JSON for them), without pino's generic
 * walk of a record object: the one `info` line of every request cost more than the rest of
 * the record (a key-by-key escape of every key and value, and a string built piece by piece:
 * 2.9 KB and some 4% of the hub's CPU a call). Undefined when `log` is not pino, or is set up
 * in a way that changes its lines (a mixin, a log formatter, a write hook, a message prefix,
 * a nested key, a serializer or stringifier for one of `keys`, a stream that wants each
 * record's metadata): the record is then written through the logger as before.
 */
export function accessLineWriter(log: FastifyBaseLogger, keys: readonly string[]): AccessLineWriter | undefined {
  const logger = log as unknown as Record<symbol, unknown>;
  if (typeof logger[lsCacheSym] !== 'object' || typeof logger[timeSym] !== 'function' || typeof logger[chindingsSym] !== 'string' || typeof logger[endSym] !== 'string') return undefined;
  const stream = logger[streamSym] as { write?: (line: string) => unknown; [needsMetadataGsym]?: boolean } | undefined;
  const formatters = logger[formattersSym] as { log?: unknown } | undefined;
  const hooks = logger[hooksSym] as { streamWrite?: unknown } | undefined;
  const serializers = (logger[serializersSym] ?? {}) as Record<string, unknown>;
  const stringifiers = (logger[stringifiersSym] ?? {}) as Record<string | symbol, unknown>;
  if (
    stream === undefined ||
    typeof stream.write !== 'function' ||
    stream[needsMetadataGsym] === true ||
    logger[mixinSym] ||
    formatters?.log ||
    hooks?.streamWrite ||
    (msgPrefixSym !== undefined && logger[msgPrefixSym] !== undefined) ||
    logger[nestedKeySym] ||
    logger[messageKeySym] !== 'msg' ||
    stringifiers[wildcardFirstSym] !== undefined ||
    keys.some((key) => serializers[key] !== undefined || stringifiers[key] !== undefined)
  ) {
    return undefined;
  }
  const write = stream.write.bind(stream);
  const quotedKeys = keys.map((key) => `,${JSON.stringify(key)}:`);
  // Read at each line: the level, its prefixes and the time function are the logger's of the moment.
  const levelValue = (): number => logger[levelValSym] as number;
  const prefix = (value: number): string => (logger[lsCacheSym] as Record<number, string>)[value] as string;
  const time = (): string => (logger[timeSym] as () => string).call(logger);
  // The line's pieces, joined once: a string built by `+=` leaves a chain of partial strings
  // to flatten, and JSON.stringify copies every value, where most need no escape. One array
  // for every line, of a fixed length (four places per key, empty for a value left out), so
  // that no line grows or shrinks it.
  const parts: (string | number | boolean)[] = new Array<string>(3 + 4 * quotedKeys.length + 2).fill('');
  return (level, values) => {
    // As the logger's own method: nothing below its level.
    if (LEVELS[level] < levelValue()) return;
    parts[0] = prefix(LEVELS[level]);
    parts[1] = time();
    parts[2] = logger[chindingsSym] as string;
    let at = 3;
    for (let key = 0; key < quotedKeys.length; key += 1, at += 4) {
      const value = values[key];
      const escaped = typeof value === 'string' && NEEDS_ESCAPE.test(value);
      parts[at] = value === undefined ? '' : quotedKeys[key]!;
      parts[at + 1] = typeof value === 'string' && !escaped ? '"' : '';
      // pino writes a string as JSON.stringify does, a number as its text (a non-finite one as null), a boolean as its word.
      parts[at + 2] = value === undefined ? '' : escaped ? asPinoString(value) : typeof value === 'number' && !Number.isFinite(value) ? 'null' : value;
      parts[at + 3] = parts[at + 1]!;
    }
    parts[at] = ',"msg":"request"';
    parts[at + 1] = logger[endSym] as string;
    write(parts.join(''));
  };
}

/** What may be escaped in a string: a quote, a backslash, a control character, a surrogate (JSON.stringify escapes a lone one). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const CONTROL = /[\u0000-\u001f]/;
const QUOTE_OR_BACKSLASH = /["\\]/g;
/** pino (lib/tools.js `asString`) writes every string with JSON.stringify from Node 25 on; before, only a long one or one with a control character. */
const PINO_STRINGIFIES_ALL = Number(process.versions.node.split('.')[0]) >= 25;

/** A string as pino writes it: below Node 25, a short one without control characters has only its quotes and backslashes escaped (a lone surrogate left as it is). */
function asPinoString(value: string): string {
  if (PINO_STRINGIFIES_ALL || value.length > 100 || CONTROL.test(value)) return JSON.stringify(value);
  return `"${value.replace(QUOTE_OR_BACKSLASH, '\\$&')}"`;
}
