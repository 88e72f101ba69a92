import { join } from 'node:path';
import t from 'tap';
import { fixtureEntry, tempDir } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { firstText, until } from './helpers.js';

// Issue 35 (38 here): a call through a kit wakes only the server it goes to, within the
// wake budget. `slow` sleeps START_DELAY_MS before it reads its stdin; once its tools are
// known, the budget is set far below that delay, so its wake cannot succeed in time
// whatever the machine's load (no clock is compared).

const START_DELAY_MS = '3000';
const BUDGET_MS = 200;

/**
 * The text a failed call shows its caller, thrown or as a tool error; how long the start
 * waited for an answer (what was left of the budget, which depends on the machine's load)
 * is left out of the comparison.
 */
const failure = (outcome: unknown): string =>
  (outcome instanceof Error ? outcome.message : (firstText(outcome as { content?: unknown }) ?? '')).replace(/no answer within [\d.]+ s/, 'no answer within (elapsed) s');

t.test("a call through the kit wakes only its underlying server, and a wake past the budget gives the direct call's error", async (t) => {
  const directory = await tempDir(t);
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        slow: fixtureEntry('slow-start', join(directory, 'slow'), { env: { START_DELAY_MS } }),
        other: fixtureEntry('changing-tools', join(directory, 'other')),
        kit: {
          type: 'virtual',
          tools: [
            { server: 'slow', tool: 'wait', name: 'pause' },
            { server: 'other', tool: 'echo' },
          ],
        },
      },
      plugins: { 'map-tools': false },
    },
    kernel: (hub) => hub.children.configure({ backoffBaseMs: 100, pingIntervalMs: 0 }),
  });
  // Both servers seen once (their tools known to the kit), then asleep.
  for (const name of ['slow', 'other']) {
    await hub.children.get(name)?.ensureUp();
    await hub.children.get(name)?.disconnect('sleeping');
  }
  t.ok(await until(() => hub.children.get('kit')?.findTool('pause') !== undefined && hub.children.get('kit')?.findTool('echo') !== undefined), 'the kit lists both tools');
  hub.children.configure({ wakeBudgetMs: BUDGET_MS });
  const starts: string[] = [];
  hub.children.observe({ start: (child, event) => void starts.push(`${child.name} ${event.reason} ${event.outcome}`) });

  for (const revision of REVISIONS) {
    starts.length = 0;
    const direct = await connectClient(t, `${url}/slow/mcp`, revision);
    const own = failure(await direct.callTool({ name: 'wait', arguments: { ms: 0 } }).catch((error: unknown) => error));
    t.match(own, /server "slow" did not start within 0\.2 s/, `${revision}: the direct call's error names the server and the budget`);
    t.same(starts, ['slow wake failed'], `${revision}: one wake for the direct call`);

    starts.length = 0;
    const kit = await connectClient(t, `${url}/kit/mcp`, revision);
    const routed = failure(await kit.callTool({ name: 'pause', arguments: { ms: 0 } }).catch((error: unknown) => error));
    t.equal(routed, own, `${revision}: the call through /kit/mcp gets the same error`);
    t.same(starts, ['slow wake failed'], `${revision}: the kit's call woke only slow, once`);

    starts.length = 0;
    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const viaHub = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'kit', tool: 'pause', arguments: { ms: 0 } } }).catch((error: unknown) => error);
    t.match(failure(viaHub), /server "slow" did not start within 0\.2 s/, `${revision}: through /hub call_tool server kit as well`);
    t.same(starts, ['slow wake failed'], `${revision}: and only slow was woken`);
    t.equal(hub.children.get('other')?.status, 'sleeping', `${revision}: the other underlying server stayed asleep`);
  }

  starts.length = 0;
  hub.children.configure({ wakeBudgetMs: 120_000 });
  const kit = await connectClient(t, `${url}/kit/mcp`, '2026-07-28');
  t.equal(firstText(await kit.callTool({ name: 'echo', arguments: {} })), 'ok', 'a call of the other tool wakes the other server');
  t.same(starts, ['other wake up'], 'and only it');
});
