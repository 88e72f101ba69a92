import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { cliPath, runNode } from '../helpers/cli.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));

// Every subtest starts hubs of its own (own folder, own config, PORT 0) and reads only what
// they print: they run side by side, as do the starts within one.
t.jobs = 3;

/** Starts the real `hub` CLI with a config file and returns what it printed and its exit code. */
async function startWith(config: string, env: Record<string, string> = {}) {
  const folder = await mkdtemp(join(tmpdir(), 'hub-startup-'));
  const file = join(folder, 'mcp.json');
  await writeFile(file, config);
  const result = await runNode(cliPath('hub'), [], { HUB_CONFIG: file, DATA_PATH: join(folder, 'data'), PORT: '0', ...env });
  return { ...result, file };
}

function assertOneLineFailure(t: Test, result: { code: number | null; stderr: string }) {
  t.equal(result.code, 1, 'exits non-zero');
  t.equal(result.stderr.trim().split('\n').length, 1, 'prints one line');
  t.notMatch(result.stderr, /\n\s+at /, 'prints no stack trace');
}

t.test('an unknown plugin name is named', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { 'no-such-plugin': true } }));
  assertOneLineFailure(t, result);
  t.match(result.stderr, /unknown plugin "no-such-plugin"/);
});

t.test('a file that is not a plugin is refused by name', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { [join(fixtures, 'not-a-plugin.js')]: true } }));
  assertOneLineFailure(t, result);
  t.match(result.stderr, /not-a-plugin\.js" does not export a hub plugin/);
});

t.test('a missing dependency names both plugins', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { [join(fixtures, 'needs-missing.js')]: true } }));
  assertOneLineFailure(t, result);
  t.match(result.stderr, /plugin "needs-missing" depends on plugin "ghost-plugin", which is not a known plugin/);
});

t.test('options that do not match the schema name the plugin, the option path and the expectation', async (t) => {
  const [result, nested] = await Promise.all([
    startWith(JSON.stringify({ plugins: { [join(fixtures, 'greeter.js')]: { repeat: 7 } } })),
    startWith(JSON.stringify({ plugins: { [join(fixtures, 'greeter.js')]: { style: { shout: 'yes' } } } })),
  ]);
  assertOneLineFailure(t, result);
  t.match(result.stderr, /plugin "greeter": option "repeat": expected .*<= 3/);
  t.match(nested.stderr, /plugin "greeter": option "style\.shout": expected a value of type boolean/);
});

t.test('a dependency cycle is named', async (t) => {
  const result = await startWith(JSON.stringify({ plugins: { [join(fixtures, 'cycle-a.js')]: true, [join(fixtures, 'cycle-b.js')]: true } }));
  assertOneLineFailure(t, result);
  t.match(result.stderr, /plugin dependency cycle: cycle-a -> cycle-b -> cycle-a/);
});

t.test('a config file that is not valid JSON names file, line and column', async (t) => {
  const result = await startWith('{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
  assertOneLineFailure(t, result);
  t.match(result.stderr, new RegExp(`${result.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:26: the config file is not valid JSON \\(a trailing comma`));
});

t.test('an invalid server entry names the server, the key and what was expected', async (t) => {
  const [result, oauth] = await Promise.all([
    startWith(JSON.stringify({ mcpServers: { files: { command: 'x', args: 'not-an-array' } } })),
    startWith(JSON.stringify({ mcpServers: { remote: { url: 'http://127.0.0.1:1/mcp', oauth: { mode: 'magic' } } } })),
  ]);
  assertOneLineFailure(t, result);
  t.match(result.stderr, /server "files": key "args": expected a value of type array/);
  t.match(oauth.stderr, /server "remote": key "oauth\.mode": expected one of "static", "dcr", "cimd"/);
});

t.test('server names outside the safe set, or taking a reserved path, are refused', async (t) => {
  const [reserved, unsafe, pluginPath] = await Promise.all([
    startWith(JSON.stringify({ mcpServers: { health: { type: 'in-process' } } })),
    startWith(JSON.stringify({ mcpServers: { '../etc': { type: 'in-process' } } })),
    startWith(JSON.stringify({ plugins: { [join(fixtures, 'greeter.js')]: true }, mcpServers: { greeting: { type: 'in-process' } } })),
  ]);
  assertOneLineFailure(t, reserved);
  t.match(reserved.stderr, /server "health": the name is reserved/);
  t.match(unsafe.stderr, /server "\.\.\/etc": the name must be/);
  t.match(pluginPath.stderr, /server "greeting": the name is reserved/, 'a path a plugin reserves is refused too');
});

t.test('an unset environment variable without default outside the servers is named', async (t) => {
  // A server's own unset variable takes down that server only (test/core/unset-variable.test.ts).
  const result = await startWith(JSON.stringify({ plugins: { observability: { callLogPayloads: ['${HUB_TEST_UNSET_TOKEN}'] } } }));
  assertOneLineFailure(t, result);
  t.match(result.stderr, /environment variable HUB_TEST_UNSET_TOKEN is not set \(used at plugins\.observability\.callLogPayloads\[0\]\)/);
});

t.test('a child type no enabled plugin provides is named', async (t) => {
  const result = await startWith(JSON.stringify({ mcpServers: { boxed: { type: 'teleport' } } }));
  assertOneLineFailure(t, result);
  t.match(result.stderr, /server "boxed": key "type": expected one of .*"in-process".* \(got "teleport"/);
});

t.test('with oauth-as disabled, a HOST that is not loopback is refused, saying why', async (t) => {
  const started = await Promise.all(['0.0.0.0', '::', '192.0.2.10'].map(async (host) => ({ host, result: await startWith(JSON.stringify({ plugins: { 'oauth-as': false } }), { HOST: host }) })));
  for (const { host, result } of started) {
    assertOneLineFailure(t, result);
    t.match(result.stderr, `is oauth-as disabled?), which is allowed only when HOST is a loopback address, and HOST is ${host}`, host);
  }
});
