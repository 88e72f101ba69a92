import { join } from 'node:path';
import t from 'tap';
import { fixtureEntry, startHub, starts, tempDir } from '../../core/children/helpers.js';

// Issue 44, F3: with `versionNegotiation: "auto"` the start probes the child first. A
// process that exits during a probe is that start's failure, reported at once with its
// exit code and stderr, as the default mode reports it, never retried as a probe that
// merely went unanswered.

t.test('auto negotiation: a process that exits during the probe fails its start at once, with exit code and stderr', async (t) => {
  const directory = await tempDir(t);
  const { hub, logs } = await startHub(t, {
    config: {
      mcpServers: { exits: fixtureEntry('exits-at-once', join(directory, 'exits')) },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
    timings: { failedStartMemoryMs: 0 },
  });
  const child = hub.children.get('exits');
  if (!child) throw new Error('no child');
  await t.rejects(child.ensureUp(), /^server "exits" could not start: the process exited with code 1 \(stderr: error: cannot open the database/);
  t.equal(starts(join(directory, 'exits')).length, 1, 'one process started: no attempt after the one that ended');
  t.notOk(
    logs.some((line) => line.msg === 'server ended; restarting'),
    'no supervision restart for a server that never ran',
  );
  t.equal(child.status, 'down');
});
