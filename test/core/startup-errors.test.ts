import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { HubError } from '../../core/errors.js';
import { startHub } from '../../core/server.js';
import { cliPath, runNode } from '../helpers/cli.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));

// Every subtest starts hubs of its own (own folder, own config, PORT 0) and reads only what
// they report: they run side by side, as do the starts within one.
t.jobs = 3;

/** A folder with `config` as its mcp.json, and the environment a hub started there reads. */
async function configured(config: string, env: Record<string, string>) {
  const folder = await mkdtemp(join(tmpdir(), 'hub-startup-'));
  const file = join(folder, 'mcp.json');
  await writeFile(file, config);
  return { file, env: { ...process.env, HUB_CONFIG: file, DATA_PATH: join(folder, 'data'), PORT: '0', ...env } };
}

/**
 * Starts the hub as the `hub` CLI does (startHub), in this process (issue 59: the message is
 * the subject; what the CLI prints of it is the first subtest's), and returns the error it
 * failed with, its message and the config file.
 */
async function startWith(config: string, env: Record<string, string> = {}) {
  const setup = await configured(config, { LOG_LEVEL: 'silent', ...env });
  const error = await startHub(setup.env).then(
    async (started) => {
      await started.app.close();
      return undefined;
    },
    (failure: unknown) => failure,
  );
  return { error, message: error instanceof Error ? error.message : String(error), file: setup.file };
}

/** A start-up failure the CLI reports as one line without a stack trace: a HubError whose message is one line. */
function assertOneLineFailure(t: Test, result: { error: unknown; message: string }) {
  t.type(result.error, HubError, 'fails with a HubError, which runCli prints without a stack trace');
  t.equal(result.message.split('\n').length, 1, 'its message is one line');
}

// The CLI's own behaviour, once: a start-up failure is one line on stderr and exit code 1.
t.test('the hub CLI prints a start-up failure as one line without a stack trace, and exits 1', async (t) => {
  const { env } = await configured(JSON.stringify({ plugins: { 'no-such-plugin': true } }), {});
  const result = await runNode(cliPath('hub'), [], env);
  t.equal(result.code, 1, 'exits non-zero');
  t.equal(result.stderr.trim().split('\n').length, 1, 'prints one line');
  t.notMatch(result.stderr, /\n\s+at /, 'prints no stack trace');
  t.match(result.stderr, /^hub: .*unknown plugin "no-such-plugin"/);
});

t.test('an unknown plugin name is named', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { 'no-such-plugin': true } }));
  assertOneLineFailure(t, result);
  t.match(result.message, /unknown plugin "no-such-plugin"/);
});

t.test('a file that is not a plugin is refused by name', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { [join(fixtures, 'not-a-plugin.js')]: true } }));
  assertOneLineFailure(t, result);
  t.match(result.message, /not-a-plugin\.js" does not export a hub plugin/);
});

t.test('a missing dependency names both plugins', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { [join(fixtures, 'needs-missing.js')]: true } }));
  assertOneLineFailure(t, result);
  t.match(result.message, /plugin "needs-missing" depends on plugin "ghost-plugin", which is not a known plugin/);
});

t.test('options that do not match the schema name the plugin, the option path and the expectation', async (t) => {
  const [result, nested] = await Promise.all([
    startWith(JSON.stringify({ plugins: { [join(fixtures, 'greeter.js')]: { repeat: 7 } } })),
    startWith(JSON.stringify({ plugins: { [join(fixtures, 'greeter.js')]: { style: { shout: 'yes' } } } })),
  ]);
  assertOneLineFailure(t, result);
  t.match(result.message, /plugin "greeter": option "repeat": expected .*<= 3/);
  t.match(nested.message, /plugin "greeter": option "style\.shout": expected a value of type boolean/);
});

t.test('a dependency cycle is named', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { [join(fixtures, 'cycle-a.js')]: true, [join(fixtures, 'cycle-b.js')]: true } }));
  assertOneLineFailure(t, result);
  t.match(result.message, /plugin dependency cycle: cycle-a -> cycle-b -> cycle-a/);
});

t.test('a config file that is not valid JSON names file, line and column', async (t) => {
  const result = await startWith('{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
  assertOneLineFailure(t, result);
  t.match(result.message, new RegExp(`${result.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:26: the config file is not valid JSON \\(a trailing comma`));
});

t.test('an invalid server entry names the server, the key and what was expected', async (t) => {
  const [result, oauth] = await Promise.all([
    startWith(JSON.stringify({ mcpServers: { files: { command: 'x', args: 'not-an-array' } } })),
    startWith(JSON.stringify({ mcpServers: { remote: { url: 'http://127.0.0.1:1/mcp', oauth: { mode: 'magic' } } } })),
  ]);
  assertOneLineFailure(t, result);
  t.match(result.message, /server "files": key "args": expected a value of type array/);
  t.match(oauth.message, /server "remote": key "oauth\.mode": expected one of "static", "dcr", "cimd"/);
});

t.test('server names outside the safe set, or taking a reserved path, are refused', async (t) => {
  const [reserved, unsafe, pluginPath] = await Promise.all([
    startWith(JSON.stringify({ mcpServers: { health: { type: 'in-process' } } })),
    startWith(JSON.stringify({ mcpServers: { '../etc': { type: 'in-process' } } })),
    startWith(JSON.stringify({ plugins: { [join(fixtures, 'greeter.js')]: true }, mcpServers: { greeting: { type: 'in-process' } } })),
  ]);
  assertOneLineFailure(t, reserved);
  t.match(reserved.message, /server "health": the name is reserved/);
  t.match(unsafe.message, /server "\.\.\/etc": the name must be/);
  t.match(pluginPath.message, /server "greeting": the name is reserved/, 'a path a plugin reserves is refused too');
});

t.test('an unset environment variable without default outside the servers is named', async (t) => {
  // A server's own unset variable takes down that server only (test/core/unset-variable.test.ts).
  const result = await startWith(JSON.stringify({ plugins: { observability: { callLogPayloads: ['${HUB_TEST_UNSET_TOKEN}'] } } }));
  assertOneLineFailure(t, result);
  t.match(result.message, /environment variable HUB_TEST_UNSET_TOKEN is not set \(used at plugins\.observability\.callLogPayloads\[0\]\)/);
});

t.test('a child type no enabled plugin provides is named', async (t) => {
  const result = await startWith(JSON.stringify({ mcpServers: { boxed: { type: 'teleport' } } }));
  assertOneLineFailure(t, result);
  t.match(result.message, /server "boxed": key "type": expected one of .*"in-process".* \(got "teleport"/);
});

t.test('with oauth-as disabled, a HOST that is not loopback is refused, saying why', async (t) => {
  const started = await Promise.all(['0.0.0.0', '::', '192.0.2.10'].map(async (host) => ({ host, result: await startWith(JSON.stringify({ plugins: { 'oauth-as': false } }), { HOST: host }) })));
  for (const { host, result } of started) {
    assertOneLineFailure(t, result);
    t.match(result.message, `is oauth-as disabled?), which is allowed only when HOST is a loopback address, and HOST is ${host}`, host);
  }
});
