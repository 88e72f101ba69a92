import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { cliPath } from '../../helpers/cli.js';
import { startHubBin } from '../../helpers/hub-bin.js';
import { listenOnLoopback } from '../../helpers/net.js';

// Issue 18, item 10: readable log lines on a terminal, one JSON record a line otherwise.

const TYPO = { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServer: {} };

t.test('LOG_FORMAT=pretty prints readable lines', async (t) => {
  const hub = await startHubBin(t, { config: TYPO, env: { LOG_FORMAT: 'pretty' } });
  await hub.stop();
  const lines = hub
    .stdout()
    .split('\n')
    .filter((line) => line.trim() !== '');
  t.ok(lines.length > 0);
  t.notOk(
    lines.some((line) => line.startsWith('{')),
    'no JSON records',
  );
  t.match(hub.stdout(), /WARN.*unknown key "mcpServer" \(did you mean "mcpServers"\?\)/);
  t.match(hub.stdout(), /INFO.*Server listening at http:\/\/127\.0\.0\.1:/);
});

t.test('by default, a log that is not a terminal gets one JSON record a line', async (t) => {
  const hub = await startHubBin(t, { config: TYPO, env: { LOG_FORMAT: '' } });
  // The log is written asynchronously: the warning arrives within its flush interval.
  await hub.waitForLog('the typo warning', (record) => record.msg === 'unknown key "mcpServer" (did you mean "mcpServers"?)');
  const lines = hub
    .stdout()
    .split('\n')
    .filter((line) => line.trim() !== '');
  t.ok(lines.length > 0 && lines.every((line) => typeof JSON.parse(line) === 'object'), 'every line is a JSON record');
});

t.test('by default, a terminal gets readable lines', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'hub-tty-'));
  await writeFile(join(folder, 'mcp.json'), JSON.stringify(TYPO));
  // The port is taken, so the hub logs the warning and stops: all on a pseudo-terminal that `script` provides.
  const port = await listenOnLoopback(t, createServer());
  const command = `HUB_CONFIG=${join(folder, 'mcp.json')} DATA_PATH=${join(folder, 'data')} PORT=${port} ${process.execPath} ${cliPath('hub')}`;
  const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { env: { ...process.env, LOG_FORMAT: '' } }).catch((error: unknown) => ({
    stdout: error instanceof Error && 'stdout' in error ? String(error.stdout) : String(error),
  }));
  t.match(stdout, /WARN.*unknown key "mcpServer"/, 'pino-pretty on the terminal');
  t.notMatch(stdout, /"level":/, 'no JSON records');
  t.match(stdout, `hub: cannot listen on 127.0.0.1:${port}: the port is in use`);
});
