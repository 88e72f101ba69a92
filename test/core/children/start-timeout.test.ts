import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import type { CheckReport } from '../../../core/cli/check.js';
import { settingsFromEnvironment } from '../../../core/config/settings.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { cliPath, runNode } from '../../helpers/cli.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { fixtureEntry, tempDir } from './helpers.js';

// Issue 55.6: how long a server may take to start is one setting per server entry
// (`startTimeoutMs`), with a hub-wide default (START_TIMEOUT_MS), taken by every wait on a
// start (a server's own endpoint, /hub's calls, a child type's start) and by `hub check
// --connect`, and named in the error of a server that did not start within it.
//
// Road x channel covered: /<name>/mcp on both revisions x a request's error; /hub's
// call_tool x its tool error; `hub check --connect` x the server's handshake line; the
// setting x start-up's parse. The silent child never answers its handshake.

const HINT = /set "startTimeoutMs" in its entry/;

t.test("a server's own startTimeoutMs bounds each wait on its start, whatever the hub-wide budget", async (t) => {
  const directory = await tempDir(t);
  const { url } = await startTestHub(t, {
    config: {
      mcpServers: { silent: { ...fixtureEntry('silent', join(directory, 'starts')), startTimeoutMs: 1_500 } },
    },
    // The hub-wide budget is far longer than any wait of this test: only the entry's can end it.
    env: { START_TIMEOUT_MS: '600000' },
    kernel: (hub) => hub.children.configure({ backoffBaseMs: 100, pingIntervalMs: 0 }),
  });
  for (const revision of REVISIONS) {
    const answer = await rawRequest(`${url}/silent/mcp`, revision, 'tools/list');
    t.match(answer.error?.message, /^server "silent" did not start within 1\.5 s: no answer within/, `${revision}: the entry's budget, named`);
    t.match(answer.error?.message, HINT, `${revision}: the error says which key gives more`);
  }
  const hubClient = await connectClient(t, `${url}/hub`, '2026-07-28');
  const result = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'silent', tool: 'echo', arguments: {} } });
  t.equal(result.isError, true, '/hub call_tool: a tool error');
  t.match((result.content as { text: string }[])[0]?.text, HINT, '/hub call_tool: naming startTimeoutMs');
});

t.test('START_TIMEOUT_MS is the budget of every server without its own', async (t) => {
  t.equal(settingsFromEnvironment({}).startTimeoutMs, 120_000, 'two minutes by default');
  t.equal(settingsFromEnvironment({ START_TIMEOUT_MS: '45000' }).startTimeoutMs, 45_000);
  t.throws(() => settingsFromEnvironment({ START_TIMEOUT_MS: '0' }), /START_TIMEOUT_MS: expected a whole number of at least 1/);
  const directory = await tempDir(t);
  const { url } = await startTestHub(t, {
    config: { mcpServers: { silent: fixtureEntry('silent', join(directory, 'starts')) } },
    env: { START_TIMEOUT_MS: '1200' },
    kernel: (hub) => hub.children.configure({ backoffBaseMs: 100, pingIntervalMs: 0 }),
  });
  const answer = await rawRequest(`${url}/silent/mcp`, '2025-11-25', 'tools/list');
  t.match(answer.error?.message, /^server "silent" did not start within 1\.2 s: /, "the hub's budget");
});

t.test('hub check --connect gives each server its own start timeout, and names it', async (t) => {
  const folder = await tempDir(t);
  const file = join(folder, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({
      plugins: { 'map-tools': false, 'oauth-as': false },
      mcpServers: { silent: { ...fixtureEntry('silent', join(folder, 'starts')), startTimeoutMs: 1_500 }, fine: fixtureEntry('crashy', join(folder, 'fine')) },
    }),
  );
  // Were the hub-wide budget the one applied, the check would wait ten minutes on the silent server.
  const result = await runNode(cliPath('hub'), ['check', '--connect', '--json'], { HUB_CONFIG: file, DATA_PATH: join(folder, 'data'), START_TIMEOUT_MS: '600000' });
  t.equal(result.code, 1, result.stderr);
  const report = JSON.parse(result.stdout) as CheckReport;
  t.match(
    report.servers.find((server) => server.name === 'silent'),
    { handshake: { ok: false, detail: /did not start within 1\.5 s: no answer within/ } },
  );
  t.match(report.servers.find((server) => server.name === 'silent')?.handshake?.detail, HINT);
  t.match(
    report.servers.find((server) => server.name === 'fine'),
    { handshake: { ok: true } },
  );
});
