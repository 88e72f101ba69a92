import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startHubBin } from '../../helpers/hub-bin.js';
import { freePort } from '../../helpers/net.js';
import { fixtureEntry, isAlive, tempDir, waitFor } from '../children/helpers.js';

// Issue 32, item 8: a clean drain at shutdown.

const plugins = { 'oauth-as': false, 'map-tools': false };
const root = fileURLToPath(new URL('../../../../', import.meta.url));

const ping = (url: string) =>
  fetch(`${url}/hub`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":7,"method":"ping"}' });

t.test('SIGTERM: /readyz says 503 at once, new calls are refused, the call in flight finishes', async (t) => {
  const directory = await tempDir(t);
  const release = join(directory, 'release');
  const hub = await startHubBin(t, {
    config: { plugins, mcpServers: { slow: fixtureEntry('slow-start', join(directory, 'starts'), { env: { START_DELAY_MS: '0' } }) } },
    env: { DRAIN_TIMEOUT_MS: '600000' },
  });
  const client = await connectClient(t, `${hub.url}/slow/mcp`, '2026-07-28');
  const call = client.callTool({ name: 'hold', arguments: { path: release } });
  await waitFor('the call to reach the child', () => existsSync(`${release}.held`));
  t.equal((await fetch(`${hub.url}/readyz`)).status, 200);

  hub.signal('SIGTERM');
  await hub.waitForLog('the drain', (line) => line.msg === 'draining: waiting for calls in flight');
  const ready = await fetch(`${hub.url}/readyz`);
  t.equal(ready.status, 503, 'not ready from the start of the drain, on a new connection too');
  t.match(await ready.json(), { status: 'not ready', reasons: ['the hub is shutting down: calls in flight are finishing'] });
  const refused = await ping(hub.url);
  t.equal(refused.status, 503, 'a new MCP request is refused');
  t.match(await refused.json(), { jsonrpc: '2.0', error: { code: -32000, message: /^the hub is shutting down/ } });

  await writeFile(release, '');
  t.same((await call).content, [{ type: 'text', text: 'released' }], 'the call in flight finished');
  t.equal(await hub.exited, 0, 'then the hub exits cleanly');
});

t.test('a call still running after DRAIN_TIMEOUT_MS is answered with an error that says so', async (t) => {
  const directory = await tempDir(t);
  const hub = await startHubBin(t, {
    config: { plugins, mcpServers: { slow: fixtureEntry('slow-start', join(directory, 'starts'), { env: { START_DELAY_MS: '0' } }) } },
    env: { DRAIN_TIMEOUT_MS: '1000' },
  });
  const direct = await connectClient(t, `${hub.url}/slow/mcp`, '2026-07-28');
  const aggregate = await connectClient(t, `${hub.url}/hub`, '2025-11-25');
  // Held until a file that never comes: only the drain's end can stop these calls.
  const never = join(directory, 'never');
  const calls = [
    direct.callTool({ name: 'hold', arguments: { path: never } }),
    aggregate.callTool({ name: 'call_tool', arguments: { server: 'slow', tool: 'hold', arguments: { path: `${never}-2` } } }),
  ];
  await waitFor('both calls to reach the child', () => existsSync(`${never}.held`) && existsSync(`${never}-2.held`));
  hub.signal('SIGTERM');
  for (const result of await Promise.all(calls)) {
    t.equal(result.isError, true, 'an answer, not a dropped connection');
    t.match(result.content, [{ text: 'Tool call failed: server "slow": the hub is shutting down and the call did not finish within DRAIN_TIMEOUT_MS (1000 ms)' }]);
  }
  t.equal(await hub.exited, 0);
  t.match(
    hub.logs().find((line) => line.msg.endsWith('were cut')),
    { cut: 2, drainTimeoutMs: 1000 },
  );
  // Issue 43, item 6: a deploy's cut calls are not the server's errors.
  const cutCalls = hub.logs().filter((line) => line.msg === 'request' && line.rpc === 'tools/call');
  t.same(
    cutCalls.map((line) => line.outcome),
    ['drained', 'drained'],
    'both access records say drained, not protocol_error',
  );
});

t.test('npm start passes SIGTERM on to the hub, which lets go of its port', async (t) => {
  // A copy of the project's package.json beside the built hub, as a checkout has it.
  const project = await mkdtemp(join(tmpdir(), 'npm-start-signal-'));
  await copyFile(join(root, 'package.json'), join(project, 'package.json'));
  await symlink(join(root, 'node_modules'), join(project, 'node_modules'));
  await symlink(join(root, 'dist'), join(project, 'dist'));
  await writeFile(join(project, 'mcp.json'), JSON.stringify({ plugins, mcpServers: {} }));
  const port = await freePort();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: project,
    env: { ...process.env, PORT: String(port), HUB_CONFIG: join(project, 'mcp.json'), DATA_PATH: join(project, 'data'), LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const hubPid = () => Number(/"pid":(\d+)/.exec(output)?.[1] ?? 0);
  // Whatever happens, no hub outlives the test.
  t.teardown(() => {
    if (hubPid() && isAlive(hubPid())) process.kill(hubPid(), 'SIGKILL');
  });
  await waitFor('the hub to listen', () => output.includes('Server listening'));
  t.equal((await fetch(`http://127.0.0.1:${port}/livez`)).status, 200);
  // Issue 42: the memory setting docs/operations/running.md gives, in effect in the hub process itself.
  const { readFile } = await import('node:fs/promises');
  t.ok((await readFile(`/proc/${hubPid()}/environ`, 'utf8')).split('\0').includes('MALLOC_MMAP_THRESHOLD_=131072'), 'the hub runs with a fixed malloc mmap threshold');
  t.ok((await readFile(`/proc/${hubPid()}/cmdline`, 'utf8')).split('\0').includes('--max-semi-space-size=4'), "and with V8's young generation kept to 4 MB");
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
  npm.kill('SIGTERM');
  t.equal(await exited, 0, 'npm exits with the hub');
  t.notOk(isAlive(hubPid()), 'the hub process is gone');
  await t.rejects(fetch(`http://127.0.0.1:${port}/livez`), 'and the port is free');
  t.match(output, /"signal":"SIGTERM","msg":"shutting down"/);
});
