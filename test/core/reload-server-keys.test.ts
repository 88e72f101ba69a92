import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { fixture, fixtureEntry, starts, tempDir } from './children/helpers.js';
import { githubToken, textOf } from '../plugins/guardrails/helpers.js';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { adminBeside } from '../helpers/admin.js';
import type { LogRecord } from '../helpers/hub-bin.js';
import { startStandaloneHub } from '../helpers/hub.js';

// Issue 60, item 2: a security setting a reload turns on is in force at once (`pinTools`
// withholds unreviewed tools from that moment, a per-server `guardSecrets` scans the next
// call); a key a plugin sets up at start (`oauth`) is refused for that server with the
// reason, never silently kept; a changed `plugins` section is named.
//
// | key          | reload applies       | seen on                              |
// |--------------|----------------------|--------------------------------------|
// | pinTools     | at once, retuned     | /<name>/mcp tools/list, both revisions; hub-admin tools pending |
// | guardSecrets | at once, retuned     | /<name>/mcp tools/call, both revisions |
// | oauth        | refused for a server | the log (error, `refused` in "config reloaded") |
// | plugins      | at the next restart  | the log names the changed plugins     |
//
// The standalone hub in this process, reloaded by rewriting its config file: what a reload
// applies is the subject; SIGHUP's reload is a process's (test/core/config-appears.test.ts).

const plugins = { 'oauth-as': false, 'map-tools': false };
const reloaded = (line: LogRecord) => line.msg === 'config reloaded';
const LOG = { LOG_LEVEL: 'info' };

t.test('pinTools turned on by a reload withholds the unreviewed tools at once, and they wait for approval', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const entry = { ...fixtureEntry('crashy', file), keepAlive: true };
  const hub = await startStandaloneHub(t, LOG, { config: { plugins, mcpServers: { pinned: entry } } });
  const before = await connectClient(t, `${hub.url}/pinned/mcp`, '2026-07-28');
  t.same((await before.listTools()).tools.map((tool) => tool.name).sort(), ['crash', 'echo', 'freeze'], 'not pinned: every tool is offered');

  await writeFile(hub.configFile, JSON.stringify({ plugins, mcpServers: { pinned: { ...entry, pinTools: true } } }));
  t.match(await hub.waitForLog('the reload', reloaded), { retuned: ['pinned'], restarted: [], refused: [] }, 'applied in place');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${hub.url}/pinned/mcp`, revision);
    t.same((await client.listTools()).tools, [], `${revision}: no unreviewed tool is offered from the reload on`);
    const refused = await client.callTool({ name: 'echo', arguments: {} });
    t.equal(refused.isError, true, `${revision}: nor called`);
  }
  t.equal(starts(file).length, 1, 'the server was not restarted');

  // hub-admin's commands, run in this process on the hub's config and store (its process is admin-*.test.ts's).
  const admin = adminBeside(hub.env);
  const pending = await admin('tools', 'pending', 'pinned');
  t.match(pending.stdout, /pinned crash: new/, `the tools wait for approval: ${pending.stdout}${pending.stderr}`);
  const approved = await admin('tools', 'approve', 'pinned');
  t.equal(approved.code, 0, approved.stderr);
  const after = await connectClient(t, `${hub.url}/pinned/mcp`, '2025-11-25');
  t.same((await after.listTools()).tools.map((tool) => tool.name).sort(), ['crash', 'echo', 'freeze'], 'approved: offered again');
});

t.test('a per-server guardSecrets a reload turns on scans the next call; oauth is refused for its server, saying why', async (t) => {
  const secret = githubToken();
  const withPlugins = { ...plugins, 'guard-secrets': true };
  const guarded = { command: process.execPath, args: [fixture('guarded')], env: { GUARDED_SECRET: secret }, guardSecrets: false };
  const remote = { type: 'http', url: 'http://127.0.0.1:9/mcp' };
  const hub = await startStandaloneHub(t, LOG, { config: { plugins: withPlugins, mcpServers: { guarded, remote } } });
  const open = await connectClient(t, `${hub.url}/guarded/mcp`, '2026-07-28');
  t.match(textOf(await open.callTool({ name: 'leak', arguments: {} })), secret, 'guardSecrets false: the result is not scanned');

  await writeFile(
    hub.configFile,
    JSON.stringify({ plugins: { ...withPlugins, 'output-limit': true }, mcpServers: { guarded: { ...guarded, guardSecrets: { mode: 'block' } }, remote: { ...remote, oauth: { mode: 'dcr' } } } }),
  );
  const record = await hub.waitForLog('the reload', reloaded);
  t.match(record, { retuned: ['guarded'], refused: ['remote'] });
  const refusal = hub.logs().find((line) => line.level === 50 && line.server === 'remote');
  t.match(
    refusal?.msg,
    /the reload was refused for server "remote": "oauth" is set up by upstream-oauth at start, so it runs on as it was; restart the hub to apply this change/,
    'the refusal names the key and what to do',
  );
  t.ok(
    hub.logs().some((line) => line.level === 40 && /the "plugins" section changed \(output-limit\)/.test(line.msg)),
    'the changed plugin is named',
  );

  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${hub.url}/guarded/mcp`, revision);
    const blocked = await client.callTool({ name: 'leak', arguments: {} });
    t.equal(blocked.isError, true, `${revision}: the result carrying a secret is withheld from the reload on`);
    t.notMatch(JSON.stringify(blocked), secret, `${revision}: never the secret`);
  }
});
