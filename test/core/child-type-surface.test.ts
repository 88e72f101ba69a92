import t from 'tap';
import type { ChildType, EntryCheck, EntryCheckContext } from '../../core/plugin/child-type.js';
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
