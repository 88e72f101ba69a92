import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cliPath } from '../helpers/cli.js';
import { startHubBin } from '../helpers/hub-bin.js';
import { fixture, isAlive, starts, waitFor } from './children/helpers.js';

t.test('SIGTERM shuts the hub down gracefully: health answered until then, exit 0, secrets not logged', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'hub-shutdown-'));
  const config = join(folder, 'mcp.json');
  await writeFile(config, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false } }));
  const child = spawn(process.execPath, [cliPath('hub')], {
    env: { ...process.env, HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let log = '';
  const listening = new Promise<string>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (match?.[1]) resolve(match[1]);
    }),
  );
  const url = await listening;
  const health = await fetch(`${url}/health?token=s3cret`, { headers: { authorization: 'Bearer s3cret' } });
  t.equal(health.status, 200);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'exit code 0');
  t.match(log, /"signal":"SIGTERM","msg":"shutting down"/);
  t.notMatch(log, /s3cret/, 'neither the header nor the query string reached the log');
});

t.test('at shutdown no child outlives the hub, starting ones included, and nothing is served once it says it is shutting down', async (t) => {
  const directory = await mkdtemp(join(tmpdir(), 'hub-shutdown-'));
  const stuck = (name: string, keepAlive: boolean) => ({ command: process.execPath, args: [fixture('stuck')], env: { FIXTURE_STARTS: join(directory, name) }, keepAlive });
  const hub = await startHubBin(t, {
    config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { always: stuck('always', true), waking: stuck('waking', false) } },
  });
  // An always-running child starts with the hub; an on-demand one is woken by a request its caller then gives up on.
  const caller = new AbortController();
  const request = fetch(`${hub.url}/waking/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    signal: caller.signal,
  }).catch(() => undefined);
  await waitFor('both children to be starting', () => starts(join(directory, 'always')).length === 1 && starts(join(directory, 'waking')).length === 1);
  caller.abort();
  await request;
  const pids = [...starts(join(directory, 'always')), ...starts(join(directory, 'waking'))].map((start) => start.pid);
  t.ok(pids.every(isAlive), 'both are running, neither has answered its handshake');

  hub.signal('SIGTERM');
  await hub.waitForLog('the shutdown', (record) => record.msg === 'shutting down');
  const late = await fetch(`${hub.url}/health`).then(
    (response) => response.status,
    () => 'refused',
  );
  t.not(late, 200, `a request after "shutting down" is not served (${late})`);
  await hub.stop();
  t.same(pids.filter(isAlive), [], 'no child process outlives the hub');
});
