import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import t from 'tap';
import { openDetachedHub } from '../../../core/detached.js';
import { StartupError } from '../../../core/errors.js';
import { cliPath, type CliResult } from '../../helpers/cli.js';

// Issue 18, item 11: hub-stdio as a desktop client starts it, from a folder of the
// client's choosing: its data goes to a per-user folder unless the current folder is the
// config's own, every data-path problem names DATA_PATH, and nothing hangs.

async function setUp() {
  const home = await mkdtemp(join(tmpdir(), 'stdio-home-'));
  const config = join(home, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: {}, plugins: { 'map-tools': false } }));
  const state = join(home, 'state');
  return { home, config, state };
}

/** hub-stdio run to completion from `cwd`, with only the variables given (as a desktop client does). */
function runStdio(cwd: string, env: Record<string, string>, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath('hub-stdio'), ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

async function connect(t: { teardown(fn: () => unknown): void }, cwd: string, env: Record<string, string>) {
  const client = new Client({ name: 'desktop', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cliPath('hub-stdio')], cwd, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' }));
  t.teardown(() => client.close());
  return client;
}

t.test("started from a folder that is not the config's, the data goes to the per-user state folder", async (t) => {
  const { home, config, state } = await setUp();
  const launchedFrom = await mkdtemp(join(tmpdir(), 'stdio-cwd-'));
  const client = await connect(t, launchedFrom, { HUB_CONFIG: config, XDG_STATE_HOME: state });
  t.equal((await client.listTools()).tools.length, 6);
  await client.close();
  t.ok(existsSync(join(state, 'mcp-hub', 'store')), 'the store is in $XDG_STATE_HOME/mcp-hub');
  t.notOk(existsSync(join(launchedFrom, 'data')), 'nothing in the folder it was launched from');
  t.notOk(existsSync(join(home, 'data')));

  const help = await runStdio(launchedFrom, { HUB_CONFIG: config, XDG_STATE_HOME: state }, ['--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, `${join(state, 'mcp-hub')}  (the per-user state folder: ${launchedFrom} does not hold the config file)`, '--help says which folder, and why');
});

t.test("started from the config's own folder, the data is ./data there", async (t) => {
  const { home, state } = await setUp();
  const client = await connect(t, home, { XDG_STATE_HOME: state });
  t.equal((await client.listTools()).tools.length, 6);
  await client.close();
  t.ok(existsSync(join(home, 'data', 'store')));
  t.notOk(existsSync(join(state, 'mcp-hub')));
});

t.test('started from /proc/self (not writable), it still serves', async (t) => {
  const { config, state } = await setUp();
  const client = await connect(t, '/proc/self', { HUB_CONFIG: config, XDG_STATE_HOME: state });
  t.equal((await client.listTools()).tools.length, 6);
});

t.test('an unusable DATA_PATH is named, and hub-stdio exits instead of hanging', async (t) => {
  const { home, config } = await setUp();
  const [first, ...others] = [join(config, 'data'), '/proc/self/data', config];
  const result = await runStdio(home, { HUB_CONFIG: config, DATA_PATH: first }, []);
  t.equal(result.code, 1, `${first}: exits with 1 (a kill after 60 s would give null)`);
  t.match(result.stderr, `hub-stdio: DATA_PATH (${first}) is not a folder the hub can write: `);
  t.equal(result.stderr.trim().split('\n').length, 1, 'one line');
  // The other paths in this process, opening the hub as hub-stdio does: a StartupError
  // with one problem on one line is what runCli prints as the line above and exits 1 for.
  for (const dataPath of others) {
    const error = await openDetachedHub({ HUB_CONFIG: config, DATA_PATH: dataPath }).then(
      async ({ app }) => {
        await app.close();
        return undefined;
      },
      (failure: unknown) => failure,
    );
    t.type(error, StartupError, `${dataPath}: the hub refuses to open`);
    if (!(error instanceof StartupError)) continue;
    t.match(error.message, `DATA_PATH (${dataPath}) is not a folder the hub can write: `);
    t.same(error.problems, [error.message], 'one problem');
    t.equal(error.message.split('\n').length, 1, 'one line');
  }
});
