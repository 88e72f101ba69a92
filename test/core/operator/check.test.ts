import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { checkConfig, formatReport, type CheckReport } from '../../../core/cli/check.js';
import { cliPath, runNode } from '../../helpers/cli.js';
import { fixtureEntry, starts, tempDir } from '../children/helpers.js';

// Issue 32, item 2: `hub check` validates a config without serving.

async function configIn(t: { teardown(fn: () => unknown): void }, config: unknown): Promise<Record<string, string>> {
  const folder = await tempDir(t);
  const file = join(folder, 'mcp.json');
  await writeFile(file, typeof config === 'string' ? config : JSON.stringify(config));
  return { HUB_CONFIG: file, DATA_PATH: join(folder, 'data') };
}

/** The real `hub check` process: its command line, output and exit code are the subject. */
async function check(t: { teardown(fn: () => unknown): void }, config: unknown, ...args: string[]) {
  return runNode(cliPath('hub'), ['check', ...args], await configIn(t, config));
}

/**
 * What `hub check [--connect]` reports, run in this process as the CLI runs it (checkConfig,
 * then formatReport or the JSON); the CLI's exit code is `report.ok ? 0 : 1`, which the
 * process runs below check.
 */
async function checkBeside(t: { teardown(fn: () => unknown): void }, config: unknown, connect = false) {
  const report = await checkConfig({ ...process.env, ...(await configIn(t, config)) }, connect);
  return { report: JSON.parse(JSON.stringify(report)) as CheckReport, text: formatReport(report) };
}

const plugins = { 'map-tools': false, 'oauth-as': false };

t.test('every server is checked without starting it; problems exit 1, in words and in JSON', async (t) => {
  const directory = await tempDir(t);
  const config = {
    plugins,
    mcpServers: {
      fine: fixtureEntry('crashy', join(directory, 'fine')),
      missing: { command: 'no-such-server-binary-anywhere' },
      notExecutable: { command: './mcp.json' },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
      wrongScheme: { type: 'sse', url: 'ftp://example.com/sse' },
      broken: { type: 'no-such-type' },
      old: { command: 'no-such-server-binary-anywhere', disabled: true },
    },
  };
  const human = await check(t, config);
  t.equal(human.code, 1, human.stderr);
  t.match(human.stdout, /^ {2}ok +fine +stdio: ".*node" is \/.*$/m);
  t.match(human.stdout, /^ {2}problem +missing +stdio: "no-such-server-binary-anywhere" is not on PATH$/m);
  t.match(human.stdout, /^ {2}problem +broken .*server "broken": key "type": expected one of/m);
  t.match(human.stdout, /^ {2}disabled +old /m);
  t.match(human.stdout, /4 servers would fail; the hub would start without them\n$/);
  t.same(starts(join(directory, 'fine')), [], 'nothing was started');

  const { report } = await checkBeside(t, config);
  t.equal(report.ok, false, 'the JSON report: not ok');
  t.same(Object.fromEntries(report.servers.map((server) => [server.name, server.status])), {
    broken: 'problem',
    fine: 'ok',
    missing: 'problem',
    notExecutable: 'problem',
    old: 'disabled',
    remote: 'ok',
    wrongScheme: 'problem',
  });
  t.match(
    report.servers.find((server) => server.name === 'wrongScheme'),
    { type: 'sse', detail: '"ftp://example.com/sse" is not an http(s) URL' },
  );
});

t.test('--connect completes the MCP handshake with each server, then stops it', async (t) => {
  const directory = await tempDir(t);
  const { report } = await checkBeside(t, { plugins, mcpServers: { fine: fixtureEntry('crashy', join(directory, 'fine')), exits: fixtureEntry('exits-at-once', join(directory, 'exits')) } }, true);
  t.equal(report.ok, false, 'a problem found: exit 1');
  t.match(
    report.servers.find((server) => server.name === 'fine'),
    { status: 'ok', handshake: { ok: true, detail: /^crashy 1\.0\.0 answered the MCP handshake \(MCP 2025-11-25, 3 tools\)$/ } },
  );
  t.match(
    report.servers.find((server) => server.name === 'exits'),
    { handshake: { ok: false, detail: /could not start: the process exited with code 1 \(stderr: error: cannot open the database/ } },
  );
  t.equal(starts(join(directory, 'fine')).length, 1, 'started once for the handshake');
});

t.test('a config that checks out exits 0; one the hub would refuse exits 1; a wrong flag 2', async (t) => {
  const directory = await tempDir(t);
  const good = await checkBeside(t, { plugins, mcpServers: { fine: fixtureEntry('crashy', join(directory, 'fine')) } });
  t.equal(good.report.ok, true, good.text);
  t.match(good.text, /all 1 servers checked out\n$/);
  const invalid = await checkBeside(t, '{"mcpServers": {},}');
  t.match(invalid.report, { ok: false, problems: [/mcp\.json:1:18: the config file is not valid JSON \(a trailing comma/] });
  const usage = await check(t, {}, '--port', '4000');
  t.equal(usage.code, 2);
  t.match(usage.stderr, /unknown option --port/);
  const alias = await runNode(cliPath('hub'), ['--check', '--json'], { HUB_CONFIG: join(directory, 'none.json'), DATA_PATH: join(directory, 'data') });
  t.equal(alias.code, 0, 'hub --check, here on the built-in defaults');
  t.match(JSON.parse(alias.stdout), { ok: true, servers: [{ name: 'map', status: 'ok', detail: 'provided by a plugin' }] });
});

t.test('every field error of an entry is printed, not just the first; the first line and the exit code are as before', async (t) => {
  // Kernel keys of the wrong type stop the whole config: each is a problem line.
  const kernel = await checkBeside(t, { plugins, mcpServers: { bad: { command: '/bin/true', args: 'not a list', timeout: 'soon', keepAlive: 'yes' } } });
  t.equal(kernel.report.ok, false, 'exit 1');
  const lines = kernel.text.split('\n').filter((line) => line.startsWith('  problem'));
  t.equal(lines.length, 3, kernel.text);
  for (const key of ['args', 'timeout', 'keepAlive'])
    t.ok(
      lines.some((line) => line.includes(`server "bad": key "${key}": expected a value of type `)),
      `${key} is named`,
    );
  t.match(kernel.text, /the hub would not start\n$/);
  t.equal(kernel.report.problems.length, 3, 'and in JSON, one problem each');

  // A type's own schema and a plugin's server key: the entry is left out, with each of its errors on a line of its own.
  const typed = await checkBeside(t, { plugins, mcpServers: { remote: { type: 'http' }, boxed: { type: 'docker', network: '', memory: 'lots', pinTools: 'yes' } } });
  t.equal(typed.report.ok, false, 'exit 1');
  const boxed = typed.report.servers.find((server) => server.name === 'boxed');
  t.equal(boxed?.problems?.length, 4, JSON.stringify(typed.report));
  t.equal(boxed?.detail, boxed?.problems?.[0], 'detail is the first of them');
  for (const key of ['image', 'network', 'memory', 'pinTools'])
    t.ok(
      boxed?.problems?.some((line) => line.includes(`server "boxed": key "${key}": expected`)),
      `${key} is named`,
    );
  t.equal(typed.text.split('\n').filter((line) => /^ {2}problem +boxed /.test(line)).length, 4, typed.text);
  t.match(typed.text, /2 servers would fail; the hub would start without them\n$/, 'servers are counted, not errors');
});
