import t from 'tap';
import type { ChildEntry, ChildType, EntryCheck, EntryCheckContext } from '../../core/plugin/child-type.js';
import { Type } from 'typebox';

// Issue 43, item 4 (part): a child type's `check` and its `EntryCheck` types are on the
// published surface (mcp-switchyard/plugin/child-type), so a third-party type can write one.

t.test('a third-party child type writes check() with the published types', async (t) => {
  const check = async (entry: { url?: string }, context: EntryCheckContext): Promise<EntryCheck> =>
    entry.url === undefined ? { ok: false, detail: `no "url" (relative to ${context.configDirectory})` } : { ok: true, detail: `the URL ${entry.url} parses` };
  const type: ChildType = {
    type: 'openapi',
    entrySchema: Type.Object({ url: Type.String() }),
    alwaysRunning: () => false,
    connect: () => Promise.reject(new Error('not in this test')),
    check,
  };
  t.same(await type.check?.({ url: 'http://127.0.0.1:9/openapi.json' }, { configDirectory: '/srv/hub' }), { ok: true, detail: 'the URL http://127.0.0.1:9/openapi.json parses' });
  t.same(await type.check?.({}, { configDirectory: '/srv/hub' }), { ok: false, detail: 'no "url" (relative to /srv/hub)' });
});

// Issue 60, item 5: `ChildType<typeof Schema>` types the entry a type is handed from its
// schema; this file does not compile when `entry.endpoint` is not a string.
t.test('a child type typed by its entry schema gets a typed entry', async (t) => {
  const WebSocketEntry = Type.Object({ endpoint: Type.String(), retries: Type.Optional(Type.Integer()) });
  const seen: string[] = [];
  const type: ChildType<typeof WebSocketEntry> = {
    type: 'websocket',
    entrySchema: WebSocketEntry,
    alwaysRunning: (entry) => (entry.retries ?? 0) > 3,
    connect: (entry) => {
      const endpoint: string = entry.endpoint;
      seen.push(endpoint);
      return Promise.reject(new Error(`not in this test: ${endpoint.toUpperCase()}`));
    },
  };
  const entry: ChildEntry<typeof WebSocketEntry> = { endpoint: 'ws://127.0.0.1:9', retries: 5, keepAlive: true };
  t.equal(type.alwaysRunning(entry), true);
  await t.rejects(type.connect(entry, {} as never), /WS:\/\/127\.0\.0\.1:9/);
  t.same(seen, ['ws://127.0.0.1:9']);
  const registered: ChildType = type;
  t.equal(registered.entrySchema, WebSocketEntry, 'and it registers where any child type does');
});
