import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { adminUsage, findCommand, isStoreOnly, parseAdminArgs, unknownGroup } from '../../core/cli/admin-args.js';
import type { AdminCommandSummary } from '../../core/cli/admin-command.js';
import { declaredCommands } from '../../core/cli/admin-declared.js';
import { parseFlags } from '../../core/cli/flags.js';
import { UsageError } from '../../core/cli/run.js';
import { openDetachedHub } from '../../core/detached.js';
import { MAX_LIMIT } from '../../plugins/tool-search/schemas.js';

// Issue 59: the CLIs' command lines as units, in-process; the processes' own behaviour
// (exit codes, the one-line errors) stays in cli.test.ts and operator/config-feedback.test.ts.

const load = async () => async () => 0;
const commands: AdminCommandSummary[] = [
  { name: 'tools', summary: 'pins', usage: 'tools pending' },
  { name: 'tools search', summary: 'search', usage: 'tools search <query>' },
  { name: 'tokens', summary: 'api tokens', usage: 'tokens list', storeOnly: { actions: ['list'], load } },
];

t.test('hub-admin: what the words ask for', async (t) => {
  t.same(parseAdminArgs([]), { help: true }, 'no words: the usage');
  t.same(parseAdminArgs(['--help']), { help: true });
  t.same(parseAdminArgs(['-h', 'tokens']), { help: true }, '-h first asks for the usage');
  t.same(parseAdminArgs(['tokens', 'list', '--help']), { help: false, group: 'tokens', args: ['list', '--help'] }, "a flag after the group is the command's own");
});

t.test('hub-admin: a two-word command goes before its group; store-only actions are the declared ones', async (t) => {
  t.same(findCommand(commands, 'tools', ['search', 'map', '--limit', '3']), { command: commands[1], args: ['map', '--limit', '3'], action: true });
  t.same(findCommand(commands, 'tools', ['pending']), { command: commands[0], args: ['pending'], action: false });
  t.same(findCommand(commands, 'tools', []), { command: commands[0], args: [], action: false }, 'a group without an action is its own command');
  t.equal(findCommand(commands, 'nosuch', ['list']), undefined);
  t.equal(findCommand(commands, 'search', []), undefined, 'an action alone names no command');
  const tokens = commands[2] as AdminCommandSummary;
  t.ok(isStoreOnly(tokens, ['list']));
  t.notOk(isStoreOnly(tokens, ['mint', '--all']), 'mint needs the hub');
  t.notOk(isStoreOnly(tokens, []), 'no action: the command says its usage');
  t.notOk(isStoreOnly(commands[0] as AdminCommandSummary, ['pending']), 'a command without store-only actions');
});

t.test('hub-admin: the usage lists every command, and where hub-admin looks', async (t) => {
  const usage = adminUsage(commands);
  t.match(usage, /^Usage: hub-admin <group> <action> \[options\]\n\n {2}tools {5}pins\n {6}hub-admin tools pending\n/);
  t.match(usage, '  tokens    api tokens\n      hub-admin tokens list\n');
  t.match(usage, /reads HUB_CONFIG, DATA_PATH, MONGODB_URL, BASE_URL, HOST and PORT/);
  t.match(adminUsage([]), '(no plugin registers admin commands)');
  t.match(unknownGroup('nosuch', commands), /^hub-admin: unknown command group "nosuch"\n\nUsage: hub-admin/);
});

t.test('hub-admin: the commands of the built-ins the config enables, from their manifests', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'admin-declared-'));
  const config = join(folder, 'mcp.json');
  const names = async () => (await declaredCommands({ HUB_CONFIG: config }))?.map((command) => command.name);
  t.same(await names(), ['clients', 'tokens', 'tools', 'upstreams', 'sessions'], "no config: the plugins on by default, then the kernel's own");
  await writeFile(config, JSON.stringify({ plugins: { 'oauth-as': false, 'tool-search': true } }));
  t.same(await names(), ['tools', 'tools search', 'upstreams', 'sessions'], 'a plugin switched off gives none; one switched on adds its own');
  await writeFile(config, `\uFEFF${JSON.stringify({ mcpServers: {} })}`);
  t.same(await names(), ['clients', 'tokens', 'tools', 'upstreams', 'sessions'], 'a config without plugins (and a byte-order mark)');
  await writeFile(config, JSON.stringify({ plugins: { './my-plugin.js': true } }));
  t.equal(await names(), undefined, 'a plugin not built in may add commands: only the hub can say');
  await writeFile(config, '{ "plugins": ');
  t.equal(await names(), undefined, 'a config that does not parse: the hub says why');
  await writeFile(config, JSON.stringify({ plugins: ['oauth-as'] }));
  t.equal(await names(), undefined, 'plugins that is not an object: the hub says why');
});

t.test('hub-admin: each built-in registers exactly the commands its manifest declares', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'admin-manifests-'));
  const env = { HUB_CONFIG: join(folder, 'mcp.json'), DATA_PATH: join(folder, 'data') };
  await writeFile(env.HUB_CONFIG, JSON.stringify({ mcpServers: {}, plugins: { 'tool-search': true, 'map-tools': false } }));
  const { app, hub } = await openDetachedHub(env);
  t.teardown(() => app.close());
  const registered = hub.adminCommands.values().map(({ name, summary, usage }) => ({ name, summary, usage }));
  const declared = ((await declaredCommands(env)) ?? []).map(({ name, summary, usage }) => ({ name, summary, usage }));
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  t.same(registered.sort(byName), declared.sort(byName));
  t.match(declared.find((command) => command.name === 'tools search')?.usage, `--limit <1-${MAX_LIMIT}>`, 'the search usage names the limit the command takes');
});

t.test("the bins' flags: an unknown flag or a stray word is a usage error carrying the usage", async (t) => {
  const options = { help: { type: 'boolean', short: 'h' } } as const;
  t.same(parseFlags(['-h'], options, 'USAGE').values, { help: true });
  for (const [argv, message] of [
    [['--port', '4000'], /^unknown option --port; settings come from the environment: set PORT\n\nUSAGE$/],
    [['--data=/tmp/x'], /^unknown option --data; settings come from the environment: set DATA_PATH\n\nUSAGE$/],
    [['--config', 'x'], /^unknown option --config; settings come from the environment: set HUB_CONFIG\n\nUSAGE$/],
    [['--verbose'], /^unknown option --verbose\n\nUSAGE$/],
    [['serve'], /^Unexpected argument 'serve'[^]*\n\nUSAGE$/],
  ] as const) {
    let thrown: unknown;
    try {
      parseFlags([...argv], options, 'USAGE');
    } catch (error) {
      thrown = error;
    }
    t.ok(thrown instanceof UsageError, `${argv.join(' ')}: a usage error`);
    t.match((thrown as Error | undefined)?.message, message, argv.join(' '));
  }
});
