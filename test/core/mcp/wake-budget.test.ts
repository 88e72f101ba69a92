import { join } from 'node:path';
import t from 'tap';
import { REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { fixtureEntry, tempDir } from '../children/helpers.js';

// A child that never answers its handshake: whatever a request waits on (the capabilities
// its endpoint offers, the tools it lists, a relayed request), it waits one wake budget,
// one start, and gets one answer naming the server and why.
t.test('one wake budget per request, whatever it waits on', async (t) => {
  const directory = await tempDir(t);
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { silent: fixtureEntry('silent', join(directory, 'starts')) } },
    kernel: (hub) => hub.children.configure({ wakeBudgetMs: 1_000, backoffBaseMs: 100, pingIntervalMs: 0 }),
  });
  const wakes: string[] = [];
  hub.children.observe({ start: (child, event) => void wakes.push(`${child.name} ${event.reason} ${event.outcome}`) });
  for (const revision of REVISIONS) {
    for (const method of ['tools/list', 'resources/list']) {
      wakes.length = 0;
      const answer = await rawRequest(`${url}/silent/mcp`, revision, method);
      t.match(answer.error?.message, /^server "silent" did not start within 1 s: no answer within/, `${revision} ${method}: the wake's answer`);
      t.same(wakes, ['silent wake failed'], `${revision} ${method}: one wake for the request, not one per wait`);
    }
  }
});
