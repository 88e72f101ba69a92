import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { tempDir, waitFor } from '../children/helpers.js';

// Issue 55.1: the hub's one `subscriptions/listen` stream to a 2026-07-28 child must last
// as long as the child is up. A stream that ends (cut by the child, a proxy or a library's
// timeout) is noticed, logged, reopened with back-off and followed by one re-listing, so a
// change made while it was down still reaches the callers; while it cannot be reopened,
// /health says so. The fixture's LISTEN_CONTROL endpoints cut and refuse listens on request,
// and the timers are shortened, so nothing here waits minutes.
//
// Road x channel covered: /<name>/mcp on 2026-07-28 (the caller's own listen) x
// tools/list_changed notifications and the tools list; /health x the listen's state.

interface ListenCounts {
  opened: number;
  open: number;
}

/** Asks the fixture's listen control (`/listens/<what>`); answers how many listens it opened and has open. */
async function listens(mcpUrl: string, what: 'end' | 'refuse' | 'accept'): Promise<ListenCounts> {
  const response = await fetch(new URL(`/listens/${what}`, mcpUrl), { method: 'POST' });
  return (await response.json()) as ListenCounts;
}

async function listeningCaller(t: Test, url: string) {
  const caller = await connectClient(t, url, '2026-07-28');
  let changes = 0;
  caller.setNotificationHandler('notifications/tools/list_changed', async () => void (changes += 1));
  const subscription = await caller.listen({ toolsListChanged: true });
  t.teardown(() => subscription.close());
  return { caller, changes: () => changes };
}

t.test('a listen the child cuts is reopened, the gap re-listed, and a later change reaches the caller', async (t) => {
  const folder = await tempDir(t);
  const extra = join(folder, 'extra-tool');
  const direct = await startConformanceFixture(t, 'standard', 'http', { LISTEN_CONTROL: '1', EXTRA_TOOL_FILE: extra });
  const logs: string[] = [];
  const { url } = await startTestHub(t, {
    config: { mcpServers: { watched: { type: 'http', url: direct } } },
    kernel: (created) => created.children.configure({ backoffBaseMs: 50, backoffMaxMs: 200 }),
    logs,
  });
  const { caller, changes } = await listeningCaller(t, `${url}/watched/mcp`);
  await waitFor("the hub's listen to the child", async () => (await listens(direct, 'accept')).open === 1);
  t.notOk(
    (await caller.listTools()).tools.some((tool) => tool.name === 'test_extra'),
    'the extra tool is not listed yet',
  );

  // A change the child never announces on a stream the hub holds: only a re-listing finds it.
  await writeFile(extra, '');
  await listens(direct, 'end');
  await waitFor('the caller to hear of the change made while the listen was down', () => changes() >= 1);
  t.ok(
    (await caller.listTools()).tools.some((tool) => tool.name === 'test_extra'),
    'the re-listing after the gap found the new tool',
  );
  await waitFor('the listen to be reopened', async () => (await listens(direct, 'accept')).open === 1);
  t.equal((await listens(direct, 'accept')).opened, 2, 'the hub opened a second listen');
  t.ok(
    logs.some((line) => line.includes('"server":"watched"') && line.includes('listen to the server ended')),
    'the end of the listen was logged, naming the server',
  );

  const before = changes();
  await caller.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  await waitFor('a change announced on the reopened listen to reach the caller', () => changes() > before);
  t.pass('the change announced after the reopening reached the caller');
});

t.test('a listen the hub cannot reopen shows in /health until it is back', async (t) => {
  const direct = await startConformanceFixture(t, 'standard', 'http', { LISTEN_CONTROL: '1' });
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { watched: { type: 'http', url: direct } } },
    kernel: (created) => created.children.configure({ backoffBaseMs: 50, backoffMaxMs: 100 }),
  });
  const health = async () => (await fetch(`${url}/health`)).json() as Promise<{ status: string; servers: Record<string, string>; reasons?: Record<string, string> }>;
  await waitFor("the hub's listen to the child", async () => (await listens(direct, 'accept')).open === 1);
  t.equal((await health()).status, 'ok', 'healthy while the listen is open');

  await listens(direct, 'refuse');
  await listens(direct, 'end');
  await waitFor('/health to show the listen down', async () => (await health()).status === 'degraded');
  const down = await health();
  t.equal(down.servers.watched, 'up', 'the server itself is still up');
  t.match(down.reasons?.watched, /listen/, 'the reason names the listen');
  t.match(hub.children.get('watched')?.problem, /listen/, 'list_servers and the console read the same problem');

  const { changes } = await listeningCaller(t, `${url}/watched/mcp`);
  await listens(direct, 'accept');
  await waitFor('the listen to be reopened', async () => (await listens(direct, 'accept')).open === 1);
  await waitFor('/health to be ok again', async () => (await health()).status === 'ok');
  t.equal(hub.children.get('watched')?.problem, undefined, 'no problem once the listen is back');
  const client = await connectClient(t, `${url}/watched/mcp`, '2026-07-28');
  const before = changes();
  await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  await waitFor('a change to reach the listening caller', () => changes() > before);
  t.pass('changes reach callers again');
});

t.test('a listen idle past the body timeout stays open (the timeout shortened from five minutes)', async (t) => {
  const direct = await startConformanceFixture(t, 'standard', 'http', { LISTEN_CONTROL: '1' });
  // Short enough to outlive several times, long enough that the child's other answers (an
  // event stream whose event waits on a busy machine) are never cut by it.
  const bodyTimeoutMs = 1500;
  const { url } = await startTestHub(t, {
    config: { mcpServers: { watched: { type: 'http', url: direct } }, plugins: { 'lifecycle-remote': { bodyTimeoutMs } } },
    kernel: (created) => created.children.configure({ backoffBaseMs: 50, backoffMaxMs: 100 }),
  });
  const { caller, changes } = await listeningCaller(t, `${url}/watched/mcp`);
  await waitFor("the hub's listen to the child", async () => (await listens(direct, 'accept')).open === 1);
  // Quiet for several body timeouts: a stream under one would have been cut by now.
  await sleep(bodyTimeoutMs * 3);
  t.same(await listens(direct, 'accept'), { opened: 1, open: 1 }, 'the first listen is still open: a listen stream has no body timeout');
  await caller.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  await waitFor('the change to reach the caller', () => changes() >= 1);
  t.pass('the change reached the caller through the listen held idle');
});
