import t from 'tap';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { mapResultStrings, resultStrings } from '../../../core/plugin/interceptor.js';

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
