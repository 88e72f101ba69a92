import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { ManualClock } from '../../helpers/clock.js';
import { startTestHub } from '../../helpers/hub.js';
import { fixtureEntry, starts, waitFor } from './helpers.js';

// Issue 44, S7's revert: a server stopped while its supervised restart was under way (the
// hub's stop at shutdown) took the cancelled start for a failed restart and armed another,
// which started the server again after the hub had closed: its process outlived the hub.

t.test('a stop during a supervised restart ends it for good: no restart is armed again', async (t) => {
  const file = join(await mkdtemp(join(tmpdir(), 'stop-restart-')), 'starts');
  const clock = new ManualClock();
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { fragile: fixtureEntry('crashy', file) } },
    kernel: (created) => {
      created.children.useClock(clock);
      created.children.configure({ pingIntervalMs: 0 });
    },
  });
  const child = hub.children.get('fragile');
  if (!child) throw new Error('no server');
  const client = await connectClient(t, `${url}/fragile/mcp`, '2026-07-28');
  t.equal((await client.callTool({ name: 'crash', arguments: {} })).isError, true, 'the call of a server that dies is a tool error');
  await waitFor('the crash to arm a restart', () => child.status === 'down' && clock.pending > 0);

  clock.advance(60_000);
  t.equal(child.status, 'starting', 'the supervisor restarts it');
  await child.disconnect('stopped');
  t.equal(child.status, 'stopped', 'the stop ends the start under way');
  const started = starts(file).length;
  // The cancelled start's rejection is handled on later turns; then nothing may be armed.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(clock.pending, 0, 'no restart is armed after the stop');
  clock.advance(3_600_000);
  t.equal(child.status, 'stopped', 'and nothing starts it again');
  t.equal(starts(file).length, started, 'no process was started after the stop');
});
