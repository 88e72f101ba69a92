import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { cliPath } from '../../helpers/cli.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { listenOnLoopback } from '../../helpers/net.js';

// Issue 18, item 10: readable log lines on a terminal, one JSON record a line otherwise.

const TYPO = { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServer: {} };

// The hub's logger in this process, its log going to a file (a stdout that is not a
// terminal): the format is the logger's choice, made from LOG_FORMAT and the destination.
// What reaches a real terminal from the hub bin is the last subtest's.

t.test('LOG_FORMAT=pretty prints readable lines', async (t) => {
  const hub = await startStandaloneHub(t, { LOG_FORMAT: 'pretty', LOG_LEVEL: undefined }, { config: TYPO });
  // The log is written asynchronously: the listening line is the last of the start.
  const log = await hub.waitForLogText('the listening line', (text) => text.includes('Server listening at'));
  const lines = log.split('\n').filter((line) => line.trim() !== '');
  t.ok(lines.length > 0);
  t.notOk(
    lines.some((line) => line.startsWith('{')),
    'no JSON records',
  );
  t.match(log, /WARN.*unknown key "mcpServer" \(did you mean "mcpServers"\?\)/);
  t.match(log, /INFO.*Server listening at http:\/\/127\.0\.0\.1:/);
});

t.test('by default, a log that is not a terminal gets one JSON record a line', async (t) => {
  const hub = await startStandaloneHub(t, { LOG_LEVEL: undefined }, { config: TYPO });
  await hub.waitForLog('the typo warning', (record) => record.msg === 'unknown key "mcpServer" (did you mean "mcpServers"?)');
  const lines = hub
    .log()
    .split('\n')
    .filter((line) => line.trim() !== '');
  t.ok(lines.length > 0 && lines.every((line) => typeof JSON.parse(line) === 'object'), 'every line is a JSON record');
});

// A real process on a real pseudo-terminal: what the hub bin prints there, its start-up
// failure included.
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
