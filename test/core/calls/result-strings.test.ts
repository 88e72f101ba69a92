import t from 'tap';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { eachJsonString, mapJsonStrings, mapResultStrings, resultStrings } from '../../../core/plugin/interceptor.js';

// Issue 60, item 5: the interceptor surface maps every string of a result a model reads
// (text, embedded resource text, structuredContent at any depth), so the commonest
// interceptor is a few lines.

const result: CallToolResult = {
  content: [
    { type: 'text', text: 'mail ann@example.com' },
    { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
    { type: 'resource', resource: { uri: 'file:///a', text: 'bob@example.org wrote', mimeType: 'text/plain' } },
    { type: 'resource', resource: { uri: 'file:///b', blob: 'aGVsbG8=' } },
  ],
  structuredContent: { from: 'cy@example.net', to: ['dee@example.com', 7], nested: { note: 'none' } },
  isError: false,
  _meta: { kept: 'ann@example.com' },
};

t.test('resultStrings lists what a model reads, in one order', async (t) => {
  t.same(resultStrings(result), ['mail ann@example.com', 'bob@example.org wrote', 'cy@example.net', 'dee@example.com', 'none']);
});

t.test('mapResultStrings replaces each of them, and keeps the rest', async (t) => {
  const mapped = mapResultStrings(result, (text, index) => `${index}:${text.replace(/[\w.+-]+@[\w-]+\.[\w.]+/g, '[email]')}`);
  t.same(resultStrings(mapped), ['0:mail [email]', '1:[email] wrote', '2:[email]', '3:[email]', '4:none']);
  t.same(mapped.content[1], result.content[1], 'the image is kept');
  t.same(mapped.content[3], result.content[3], 'a blob is kept');
  t.same(mapped._meta, { kept: 'ann@example.com' }, '_meta is not a model text: kept');
  t.equal(mapped.isError, false);
  t.same((mapped.structuredContent as { to: unknown[] }).to[1], 7, 'non-strings are kept');
  t.equal((result.content[0] as { text: string }).text, 'mail ann@example.com', 'the result given is not changed');
  t.notOk('structuredContent' in mapResultStrings({ content: [] }, (text) => text), 'no structuredContent is added');
});

t.test('all: every string of the result, keys, _meta and links included, as a guardrail reads it; payloads never', async (t) => {
  const linked: CallToolResult = { ...result, content: [...result.content, { type: 'resource_link', uri: 'https://example.com/x', name: 'x' }], extra: 'an unknown field' };
  const all = resultStrings(linked, { all: true });
  for (const text of ['content', 'type', 'text', 'mail ann@example.com', 'file:///a', 'structuredContent', 'from', 'cy@example.net', 'kept', 'https://example.com/x', 'an unknown field'])
    t.ok(all.includes(text), `${text} is read`);
  t.notOk(all.includes('aGVsbG8='), 'no base64 payload is read');
  t.ok(all.indexOf('from') < all.indexOf('cy@example.net'), 'a key before its value');
  const mapped = mapResultStrings(linked, (text, index) => (text === 'ann@example.com' || text === 'kept' ? `${index}!` : text), { all: true });
  t.same(mapped._meta, { [`${all.indexOf('kept')}!`]: `${all.indexOf('ann@example.com')}!` }, '_meta and its keys are mapped, by position');
  t.same(mapped.content[1], result.content[1], 'the image is kept whole');
  t.same(
    resultStrings(
      mapResultStrings(linked, (text) => text, { all: true }),
      { all: true },
    ),
    all,
    'mapping to the same strings gives the same list',
  );
});

t.test('mapJsonStrings: any JSON value; two keys mapped to one are kept apart by a number', async (t) => {
  t.same(
    mapJsonStrings({ a1: 'x', a2: 'y', list: ['z', 1, null] }, (text) => (text.startsWith('a') ? 'a' : text.toUpperCase())),
    { a: 'X', 'a (2)': 'Y', LIST: ['Z', 1, null] },
  );
  t.equal(
    mapJsonStrings('one', (text) => `${text}!`),
    'one!',
  );
  t.equal(
    mapJsonStrings(7, (text) => text),
    7,
  );
});

t.test('eachJsonString: the strings mapJsonStrings maps, in its order, base64 payloads left out, the value untouched', async (t) => {
  const value = {
    content: [
      { type: 'text', text: 'one' },
      { type: 'image', data: 'aGk=', mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///a', blob: 'YmxvYg==' } },
    ],
    structuredContent: { nested: [{ key: 'two' }, 3, null, true] },
    _meta: { note: 'three' },
  };
  const frozen = JSON.stringify(value);
  const mapped: string[] = [];
  mapJsonStrings(value, (text) => (mapped.push(text), text));
  const read: string[] = [];
  eachJsonString(value, (text) => void read.push(text));
  t.same(read, mapped, 'the same strings, in the same order');
  t.notOk(read.includes('aGk=') || read.includes('YmxvYg=='), 'no base64 payload is read');
  t.ok(read.includes('two') && read.includes('nested') && read.includes('three'), 'keys and values at every depth');
  t.equal(JSON.stringify(value), frozen, 'the value is as it was');
});
