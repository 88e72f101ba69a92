import { randomBytes } from 'node:crypto';
import t from 'tap';
import { jsonByteLength } from '../../../core/calls/json-bytes.js';

// jsonByteLength counts what JSON.stringify would write without writing it: every answer
// here is checked against JSON.stringify's own, on values a tool call carries and on the
// ones it must hand back to JSON.stringify.
const stringified = (value: unknown): number | undefined => {
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? undefined : Buffer.byteLength(text);
  } catch {
    return undefined;
  }
};

t.test('plain data counts as JSON.stringify writes it', async (t) => {
  const values: unknown[] = [
    '',
    'hi',
    'quote " backslash \\ newline \n tab \t nul \u0000 unit separator \u001f',
    'é, 中文, emoji 😀, line separator \u2028, paragraph \u2029',
    'a lone high surrogate \ud800 and a lone low one \udc00',
    0,
    -0,
    1.5,
    -1e21,
    1e-7,
    Number.MAX_SAFE_INTEGER,
    NaN,
    Infinity,
    true,
    false,
    null,
    [],
    {},
    [1, 'two', null, true, { three: [3] }],
    [undefined, () => 1, Symbol('s')],
    // A hole is written as null.
    // eslint-disable-next-line no-sparse-arrays
    [1, , 3],
    { kept: 1, dropped: undefined, fn: () => 1, symbol: Symbol('s'), 'key "quoted"': 'v', é: 'ü' },
    { nested: { deeper: { deepest: ['x', { y: 'z' }] } } },
    Object.assign(Object.create({ inherited: 'not written' }) as object, { own: 'written' }),
    Object.assign(Object.create(null) as object, { bare: 1 }),
    new Map([['a', 1]]),
    new Uint8Array([1, 2, 3]),
    { message: "{'id':'3f9c2e1b-4d5f-46a7-9b21-8c0d1e2f3a4b','url':'https://api.example.com/v1/items/1042'} ".repeat(12) },
  ];
  // Labelled by position: a label holding U+2028 would end a line of the TAP stream.
  values.forEach((value, index) => t.equal(jsonByteLength(value), stringified(value), `value ${index + 1} of ${values.length}`));
});

t.test('what the walk does not know as plain data is JSON.stringify’s to count', async (t) => {
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = cycle;
  const throwing = {
    get broken(): never {
      throw new Error('no');
    },
  };
  const shared = { x: 'shared' };
  let deep: unknown = 'bottom';
  for (let level = 0; level < 100; level++) deep = { level, deep };
  const cases: [string, unknown][] = [
    ['a Date (toJSON)', { at: new Date(0) }],
    ['an object with its own toJSON', { toJSON: () => ({ replaced: true }) }],
    ['boxed primitives', [new String('s'), new Number(2), new Boolean(false)]],
    ['a value shared twice (no cycle)', [shared, shared]],
    ['nesting past 64 levels', deep],
  ];
  for (const [label, value] of cases) t.equal(jsonByteLength(value), stringified(value), label);
  t.equal(jsonByteLength(cycle), undefined, 'a cycle: JSON.stringify refuses it');
  t.equal(jsonByteLength({ big: 1n }), undefined, 'a BigInt: JSON.stringify refuses it');
  t.equal(jsonByteLength(throwing), undefined, 'a getter that throws');
  t.equal(jsonByteLength(undefined), undefined, 'undefined: nothing written');
  t.equal(
    jsonByteLength(() => 1),
    undefined,
    'a function: nothing written',
  );
});

t.test('random strings and structures count as JSON.stringify writes them', async (t) => {
  // Random code units, lone surrogates and control characters among them, and random shapes.
  const randomString = (): string => String.fromCharCode(...new Uint16Array(randomBytes(24).buffer, 0, 12));
  const randomValue = (depth: number): unknown => {
    const kind = randomBytes(1)[0]! % (depth > 3 ? 4 : 6);
    if (kind === 0) return randomString();
    if (kind === 1) return randomBytes(4).readInt32LE() / 7;
    if (kind === 2) return randomBytes(1)[0]! % 2 === 0;
    if (kind === 3) return null;
    if (kind === 4) return Array.from({ length: randomBytes(1)[0]! % 5 }, () => randomValue(depth + 1));
    return Object.fromEntries(Array.from({ length: randomBytes(1)[0]! % 5 }, () => [randomString(), randomValue(depth + 1)]));
  };
  let agreed = 0;
  for (let round = 0; round < 500; round++) {
    const value = randomValue(0);
    if (jsonByteLength(value) === stringified(value)) agreed += 1;
    else t.fail(`differs on the value whose JSON is, in base64, ${Buffer.from(JSON.stringify(value)).toString('base64')}`);
  }
  t.equal(agreed, 500);
});
