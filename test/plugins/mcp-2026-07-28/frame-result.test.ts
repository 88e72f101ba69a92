import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import t from 'tap';
import { createCallerWire } from '../../../plugins/mcp-2026-07-28/caller-wire.js';

// Issue 42: the plain road frames a child's result key by key (a spread of it made every
// result outlive V8's minor collections); the framed result is the same as before.

t.test("a framed result is the child's, in its order, with the server's identity and its kind", async (t) => {
  const wire = createCallerWire('2026-07-28', { elicitation: false });
  const identity = { name: 'everything', version: '1.0.0' };
  const child = JSON.parse('{"content":[{"type":"text","text":"hi"}],"__proto__":{"polluted":true},"_meta":{"trace":"x"},"structuredContent":{"n":1},"isError":false}') as Record<string, unknown>;
  const framed = wire.frameResult(child as never, identity);
  const spread = { ...child, _meta: { ...(child._meta as object), [SERVER_INFO_META_KEY]: identity }, resultType: 'complete' };
  t.equal(JSON.stringify(framed), JSON.stringify(spread), 'the same text as an object spread makes, key order included');
  t.equal(Object.getPrototypeOf(framed), Object.prototype, "a child's own __proto__ key stays a key");
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.same(Object.keys(framed), ['content', '__proto__', '_meta', 'structuredContent', 'isError', 'resultType']);
  t.same(child._meta, { trace: 'x' }, "the child's result is left as it came");
});

t.test('a result without _meta gets one with the identity alone', async (t) => {
  const wire = createCallerWire('2026-07-28', { elicitation: false });
  const framed = wire.frameResult({ content: [] }, { name: 's', version: '2' });
  t.same(framed, { content: [], _meta: { [SERVER_INFO_META_KEY]: { name: 's', version: '2' } }, resultType: 'complete' });
});
