import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { StartupError } from '../../../core/errors.js';
import { startHub } from '../../../core/server.js';
import { cliPath, runNode } from '../../helpers/cli.js';
import { startTestHub } from '../../helpers/hub.js';
import { listenOnLoopback } from '../../helpers/net.js';

// Issue 18, items 3, 4 and 5: typos in the config are warned about, unknown flags and bad
// settings are refused naming what to change, and bad JSON is located where it is wrong.

async function configured(config: string | undefined, env: Record<string, string>) {
  const folder = await mkdtemp(join(tmpdir(), 'hub-feedback-'));
  const file = join(folder, 'mcp.json');
  if (config !== undefined) await writeFile(file, config);
  return { file, env: { HUB_CONFIG: file, DATA_PATH: join(folder, 'data'), PORT: '0', ...env } };
}

/** The real `hub` process: what runCli prints of a StartupError and its exit code are the subject. */
async function runHub(config: string | undefined, env: Record<string, string> = {}) {
  return runNode(cliPath('hub'), [], (await configured(config, env)).env);
}

/**
 * What the `hub` CLI fails with, started in this process as the CLI starts it (startHub):
 * a message is the subject here, and runCli prints a StartupError's problems one line each
 * (the three-wrong-fields test runs the process once for that).
 */
async function startFailure(config: string | undefined, env: Record<string, string> = {}) {
  const setup = await configured(config, { LOG_LEVEL: 'silent', ...env });
  const error = await startHub({ ...process.env, ...setup.env }).then(
    async (started) => {
      await started.close();
      return undefined;
    },
    (failure: unknown) => failure,
  );
  return { error, file: setup.file };
}

t.test('a key that looks like a known one is warned about, naming the key and the likely intent', async (t) => {
  const logs: string[] = [];
  await startTestHub(t, {
    logs,
    config: {
      plugins: { 'oauth-as': false, 'map-tools': false },
      mcpServer: {},
      mcpServers: { github: { command: 'true', denytools: ['delete_all'], keepalive: true, allowTool: ['x'], autoApprove: [], timeout: 5 } },
    },
  });
  const warnings = logs
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level === 40)
    .map((line) => line.msg);
  t.ok(warnings.includes('unknown key "mcpServer" (did you mean "mcpServers"?)'), 'a top-level typo');
  t.ok(warnings.includes('mcpServers.github: unknown key "denytools" (did you mean "denyTools"?)'), 'a known key in the wrong case');
  t.ok(warnings.includes('mcpServers.github: unknown key "keepalive" (did you mean "keepAlive"?)'));
  t.ok(warnings.includes('mcpServers.github: unknown key "allowTool" (did you mean "allowTools"?)'), 'one letter off');
  t.notOk(
    warnings.some((line) => /unknown key "(autoApprove|timeout)"/.test(line)),
    "other clients' own keys are not taken for typos",
  );
  t.ok(
    warnings.some((line) => line.startsWith('mcpServers.github: "autoApprove" is not acted on by the hub')),
    'but said to change nothing (issue 32)',
  );
});

t.test('unknown flags are refused with the usage; a flag spelling a setting names its variable', async (t) => {
  // Each bin's own command line, once: parseFlags' messages for other flags and a stray
  // word are test/core/admin-args.test.ts's. Each run exits at its arguments: side by side.
  const flagged = await Promise.all(
    ['hub', 'hub-stdio'].map(async (bin) => ({ bin, result: await runNode(cliPath(bin), ['--port', '4000'], { DATA_PATH: await mkdtemp(join(tmpdir(), 'flags-')) }) })),
  );
  for (const { bin, result } of flagged) {
    t.equal(result.code, 2, `${bin}: exit code 2`);
    t.match(result.stderr, `${bin}: unknown option --port; settings come from the environment: set PORT`);
    t.match(result.stderr, `\n\nUsage: ${bin} `, `${bin}: its usage follows`);
  }
});

t.test('every setting is validated, the message naming the variable', async (t) => {
  const settings = [
    ['PORT', 'abc', 'a whole number from 0 to 65535'],
    ['PORT', '70000', 'a whole number from 0 to 65535'],
    ['BASE_URL', 'hub.example.com', 'an absolute http(s) URL such as https://hub.example.com'],
    ['IDLE_TIMEOUT_MINUTES', 'soon', 'a number of at least 0'],
    ['TOOL_CALL_TIMEOUT_MS', '-5', 'a whole number of at least 1'],
    ['LOG_FORMAT', 'fancy', 'one of auto, json, pretty'],
  ] as const;
  for (const [variable, value, expected] of settings) {
    const { error } = await startFailure(undefined, { [variable]: value });
    const line = `${variable}: expected ${expected} (got "${value}")`;
    t.type(error, StartupError, `${variable}=${value}: a StartupError, which the CLI prints without a stack trace and exits 1`);
    t.same((error as StartupError | undefined)?.problems, [line], `${variable}=${value}: one line naming it`);
  }
});

// Issue 52 (every field error at once): the hub refusing a config at start names every
// problem hub check names, one line each, not only the first. The real process, once: how
// runCli prints a StartupError of several problems, and the exit code.
t.test('a config with three wrong fields: the hub names all three at start, one line each', async (t) => {
  const result = await runHub(
    JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { bad: { command: '/bin/true', args: 'not a list', timeout: 'soon', keepAlive: 'yes' } } }),
  );
  t.equal(result.code, 1);
  const lines = result.stderr.trim().split('\n');
  t.equal(lines.length, 3, result.stderr);
  for (const [key, type] of [
    ['args', 'array'],
    ['keepAlive', 'boolean'],
    ['timeout', 'integer'],
  ])
    t.ok(
      lines.some((line) => line.startsWith('hub: ') && line.endsWith(`server "bad": key "${key}": expected a value of type ${type}`)),
      `${key} is named`,
    );
});

t.test('a port in use says so and points at PORT', async (t) => {
  const port = await listenOnLoopback(t, createServer());
  const { error } = await startFailure(JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false } }), { PORT: String(port) });
  t.type(error, StartupError);
  t.same((error as StartupError | undefined)?.problems, [`cannot listen on 127.0.0.1:${port}: the port is in use (another hub?); set PORT to a free port`]);
});

t.test('bad JSON is located where it goes wrong, a trailing comma at the comma', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['{\n  "mcpServers": {\n    "a": { "command": "x", "args": ["1", "2",] }\n  },\n  "plugins": {}\n}\n', '3:45', /a trailing comma/],
    ['{\n  "mcpServers": {},\n  "plugins": { "oauth-as": false },\n}\n\n\n\n', '3:35', /a trailing comma/],
    ['{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}\n', '4:5', /expected a comma/],
    ['{\n  "plugins": { "oauth-as": False }\n}\n', '2:28', /true, false and null are lower case/],
    ['{\n  // a comment\n  "plugins": {}\n}\n', '2:3', /comments are not allowed/],
  ];
  for (const [text, position, problem] of cases) {
    const { error, file } = await startFailure(text);
    t.type(error, StartupError, position);
    // The line runCli prints.
    const [printed] = ((error as StartupError | undefined)?.problems ?? []).map((line) => line.split('\n')[0]);
    t.match(printed, `${file}:${position}: the config file is not valid JSON (`, position);
    t.match(printed, problem);
  }
});
