import { fileURLToPath } from 'node:url';
import t from 'tap';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { startHubBin } from '../helpers/hub-bin.js';

// Issue 54, item 1, in a real hub process: a plugin's `async` observer that fails on every
// call, and a promise rejected with nobody to handle it, leave the hub serving; each is
// logged (the stray rejection with its stack) and counted.

const plugin = fileURLToPath(new URL('../fixtures/plugins/rejecting.js', import.meta.url));

t.test('the hub process outlives failing async observers and unhandled rejections, logging and counting them', async (t) => {
  const hub = await startHubBin(t, { config: { plugins: { 'oauth-as': false, 'map-tools': false, [plugin]: true } } });
  let calls = 0;
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${hub.url}/sink/mcp`, revision);
    for (let round = 0; round < 3; round++) {
      const result = await client.callTool({ name: 'wrapped_colours', arguments: {} });
      calls += 1;
      t.same(result.structuredContent, { result: ['blue'] }, `${revision}: call ${round + 1} answered`);
    }
  }
  const stray = await hub.waitForLog('the stray rejection', (record) => typeof record.msg === 'string' && record.msg.startsWith('unhandled promise rejection'));
  t.match(stray, { err: { message: 'Error: a stray rejection nobody handles', stack: /rejecting\.js/ } }, 'logged with its stack');
  const faults = hub.logs().filter((record) => record.plugin === 'rejecting' && record.site === 'observe.toolCallStart');
  t.equal(faults.length, 1, 'the async observer: logged once');
  t.equal(hub.logs().filter((record) => record.msg === stray.msg).length, 1, 'the stray rejection: logged once (the same stack each call)');
  const metric = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await fetch(`${hub.url}/metrics`)).text())?.[1]);
  t.equal(await metric('hub_unhandled_rejections_total'), calls, 'every stray rejection counted');
  t.equal(await metric('hub_plugin_failures_total\\{plugin="rejecting",site="observe.toolCallStart"\\}'), calls, 'every failed async observer counted');
  t.equal((await fetch(`${hub.url}/health`)).status, 200, 'and the hub still serves');
});
