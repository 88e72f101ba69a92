import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { tempDir, waitFor } from '../children/helpers.js';

// Issue 44 F2: a child that refuses every listen (the conformance fixture with
// REFUSE_LISTEN=1) cannot be watched. Its callers still hear its list changes, found by
// re-listing, and a caller's listen is never acknowledged for what the hub cannot hear.

t.test('F2: list changes of a child that cannot be watched reach a listening caller; resource updates are not promised', async (t) => {
  const folder = await tempDir(t);
  const extra = join(folder, 'extra-tool');
  const direct = await startConformanceFixture(t, 'standard', 'http', { REFUSE_LISTEN: '1', EXTRA_TOOL_FILE: extra });
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { refuser: { type: 'http', url: direct } } },
    // Short waits, so the test waits on the change arriving rather than on minutes.
    kernel: (created) => created.children.configure({ relistBaseMs: 50, relistMaxMs: 200 }),
  });
  const child = hub.children.get('refuser');
  const client = await connectClient(t, `${url}/refuser/mcp`, '2026-07-28');
  t.notOk(
    (await client.listTools()).tools.some((tool) => tool.name === 'test_extra'),
    'the extra tool is not listed yet',
  );
  await waitFor('the watch to fail', () => child?.watchable === false);

  const fresh = await connectClient(t, `${url}/refuser/mcp`, '2026-07-28');
  t.notOk(fresh.getServerCapabilities()?.resources?.subscribe, 'resource subscriptions are not offered while the child cannot be watched');
  const changed = new Promise<void>((resolve) => fresh.setNotificationHandler('notifications/tools/list_changed', async () => resolve()));
  const subscription = await fresh.listen({ toolsListChanged: true, resourceSubscriptions: ['test://watched-resource'] });
  t.teardown(() => subscription.close());
  t.ok(subscription.honoredFilter.toolsListChanged, 'the listen is acknowledged for list changes, which re-listing finds');
  t.notOk(subscription.honoredFilter.resourceSubscriptions, 'and not for resource updates, which the hub cannot hear');

  await writeFile(extra, '');
  await changed;
  t.ok(
    (await fresh.listTools()).tools.some((tool) => tool.name === 'test_extra'),
    'the caller heard the change, and the list has the new tool',
  );
});
