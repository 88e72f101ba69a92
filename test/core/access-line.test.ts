import t from 'tap';
import pino, { type LoggerOptions } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { accessLineWriter, type AccessLineValue } from '../../core/access-line.js';

// Issue 57: the access record's line is written without pino's generic walk of an object;
// it must be the line pino writes for the same record, byte for byte, under every setting
// the hub gives its logger (LOG_STYLE pino and collector, a child with bindings, the
// access record's own child without redaction), and pino's own path must be kept where
// the logger is set up in a way the direct line does not follow.

const KEYS = ['reqId', 'method', 'path', 'status', 'aborted', 'durationMs', 'endpoint', 'note', 'ratio', 'empty'] as const;

/** A logger writing into an array of lines, with a fixed time so that two lines can be compared. */
function capturing(options: LoggerOptions): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = { write: (line: string) => void lines.push(line) };
  return { log: pino({ timestamp: () => ',"time":1764633600000', ...options }, sink), lines };
}

const records: AccessLineValue[][] = [
  ['req-1', 'POST', '/hub', 200, undefined, 0.125, 'hub', 'plain', 1.5, undefined],
  ['req-"2"', 'GET', '/x/\u00e9\u{1F600}/mcp', undefined, true, 12, undefined, 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800', Number.NaN, ''],
  ['r', 'DELETE', '/', 404, undefined, Number.POSITIVE_INFINITY, 'a'.repeat(100), 'long '.repeat(20) + '"end"', -0, undefined],
  // Characters JSON.stringify leaves (DEL, the line separators) beside ones it escapes (a lone low surrogate, a trailing backslash).
  ['\u007f\u2028\u2029', 'PUT', '/\udc00', 500, false, 0, 'ends \\', '\u001f', 3, 'plain text'],
];

const settings: Array<[string, LoggerOptions]> = [
  ['pino style', {}],
  ['collector style', { formatters: { level: (label: string) => ({ level: label }) }, timestamp: pino.stdTimeFunctions.isoTime }],
  ['with redaction and serializers of other keys', { redact: { paths: ['req.headers.authorization'], censor: '[redacted]' }, serializers: { req: (value: unknown) => value } }],
];

for (const [name, options] of settings) {
  t.test(`the direct line is pino's line, byte for byte: ${name}`, async (t) => {
    const fixedTime = name === 'collector style' ? { timestamp: () => ',"time":"2026-12-02T00:00:00.000Z"' } : {};
    const { log, lines } = capturing({ ...options, ...fixedTime });
    // As access-log.ts makes its logger: a child without redaction of its own, beside bindings of the app's.
    const access = log.child({ app: 'hub' }).child({}, { redact: { paths: [] } }) as unknown as FastifyBaseLogger;
    const write = accessLineWriter(access, KEYS);
    t.ok(write, 'the direct line is used');
    for (const values of records) {
      for (const level of ['info', 'debug'] as const) {
        access.level = level;
        const object = Object.fromEntries(KEYS.map((key, at) => [key, values[at]]));
        access[level](object, 'request');
        write?.(level, values);
        t.equal(lines.length, 2, 'both wrote a line');
        const [byPino, direct] = lines.splice(0, 2);
        t.equal(direct, byPino);
      }
    }
    // Below the logger's level, no line, as pino writes none.
    access.level = 'info';
    write?.('debug', records[0] as AccessLineValue[]);
    access.debug({ reqId: 'x' }, 'request');
    t.same(lines, []);
  });
}

t.test("pino's own path where the direct line would not be the logger's", async (t) => {
  const cases: Array<[string, LoggerOptions]> = [
    ['a mixin', { mixin: () => ({ extra: 1 }) }],
    ['a log formatter', { formatters: { log: (object: Record<string, unknown>) => object } }],
    ['a write hook', { hooks: { streamWrite: (line: string) => line } }],
    ['a message prefix', { msgPrefix: '[hub] ' }],
    ['a nested key', { nestedKey: 'payload' }],
    ['another message key', { messageKey: 'message' }],
    ['a serializer of one of its keys', { serializers: { path: (value: unknown) => value } }],
  ];
  for (const [name, options] of cases) {
    const { log } = capturing(options);
    t.equal(accessLineWriter(log as unknown as FastifyBaseLogger, KEYS), undefined, name);
  }
  const notPino = { info() {}, debug() {} } as unknown as FastifyBaseLogger;
  t.equal(accessLineWriter(notPino, KEYS), undefined, 'a logger that is not pino');
});
