import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { fixture, fixtureEntry, startHub, tempDir, waitFor } from '../../core/children/helpers.js';
import { startHubBin } from '../../helpers/hub-bin.js';

// Issue 44, S8: lifecycle-stdio ended only its direct child, so what a server started
// through npx, uvx or a shell script forked outlived it. Each stdio child now runs in a
// process group of its own, and the group ends with the child: on stop, crash, sleep,
// reload (a server removed or changed) and the hub's SIGTERM. The fixture forks a helper
// that watches neither its stdin nor its parent; the test counts the helpers still running.

/** Running, as /proc tells (a zombie waiting for its reaper is not running). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function helpersOf(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

async function runningServer(t: Test) {
  const directory = await tempDir(t);
  const helpers = join(directory, 'helpers');
  const { hub } = await startHub(t, { config: { mcpServers: { forks: fixtureEntry('forks-helper', join(directory, 'starts'), { env: { FIXTURE_HELPERS: helpers } }) } } });
  const child = hub.children.get('forks');
  if (!child) throw new Error('no child');
  await child.ensureUp();
  await waitFor('the helper to be forked', () => helpersOf(helpers).length === 1);
  const [helper = 0] = helpersOf(helpers);
  t.ok(running(helper), 'the helper runs beside the server');
  return { hub, child, helper, helpers };
}

const leftRunning = (pids: number[]) => pids.filter(running).length;

t.test('stop ends the whole group', async (t) => {
  const { child, helper } = await runningServer(t);
  await child.disconnect('stopped');
  await waitFor('the helper to end', () => !running(helper));
  t.equal(leftRunning([helper]), 0, 'no helper left running');
});

t.test('sleep ends the whole group', async (t) => {
  const { child, helper } = await runningServer(t);
  await child.sleep();
  t.equal(child.status, 'sleeping');
  await waitFor('the helper to end', () => !running(helper));
  t.equal(leftRunning([helper]), 0, 'no helper left running');
});

t.test('a crash ends the rest of the group', async (t) => {
  const { child, helper, helpers } = await runningServer(t);
  await child.withClient((client) => client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined));
  await waitFor('the helper of the crashed server to end', () => !running(helper));
  t.equal(leftRunning([helper]), 0, "the crashed server's helper is not left running");
  await waitFor('the restart', () => child.status === 'up' && helpersOf(helpers).length === 2);
  t.equal(leftRunning(helpersOf(helpers)), 1, 'only the restarted server has a helper');
});

t.test('a reload that removes or changes the server ends its group', async (t) => {
  const { hub, helper } = await runningServer(t);
  await hub.children.remove('forks');
  await waitFor('the helper to end', () => !running(helper));
  t.equal(leftRunning([helper]), 0, 'no helper left running');
});

t.test("the hub's SIGTERM ends every group", async (t) => {
  const directory = await tempDir(t);
  const helpers = join(directory, 'helpers');
  const entry = (n: number) => ({ command: process.execPath, args: [fixture('forks-helper')], env: { FIXTURE_HELPERS: helpers, FIXTURE_N: String(n) }, keepAlive: true });
  const bin = await startHubBin(t, { config: { mcpServers: { one: entry(1), two: entry(2) }, plugins: { 'map-tools': false, 'oauth-as': false } } });
  await waitFor('both helpers to be forked', () => helpersOf(helpers).length === 2);
  t.equal(leftRunning(helpersOf(helpers)), 2, 'two helpers run');
  bin.signal('SIGTERM');
  t.equal(await bin.exited, 0, 'the hub exits cleanly');
  await waitFor('the helpers to end', () => leftRunning(helpersOf(helpers)) === 0);
  t.equal(leftRunning(helpersOf(helpers)), 0, 'no helper outlives the hub');
});

t.test('a hard stop of the hub (its process exiting without closing anything) ends every group', async (t) => {
  const directory = await tempDir(t);
  const hub = spawn(process.execPath, [fileURLToPath(new URL('hard-stop-hub.js', import.meta.url)), directory], { stdio: 'ignore' });
  const [code] = (await once(hub, 'exit')) as [number | null];
  t.equal(code, 0, 'the hub exited as soon as the helper ran');
  const helpers = helpersOf(join(directory, 'helpers'));
  t.equal(helpers.length, 1, 'the server had forked its helper');
  await waitFor('the helper to end', () => leftRunning(helpers) === 0);
  t.equal(leftRunning(helpers), 0, 'no helper outlives the hub');
});
