import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cliPath } from '../helpers/cli.js';

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
