import { join } from 'node:path';
import t from 'tap';
import { REVISIONS, connectClient } from '../../helpers/clients.js';
import { startStandaloneHub, startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { fixture, fixtureEntry, starts, tempDir } from '../children/helpers.js';

// Issue 18, items 1 and 2: a server that cannot start fails the call at once with the
// cause, on /hub and on its own endpoint, shows `down` with that reason, and is never
// reported as having no tools.

function brokenConfig(directory: string, startsFile: string) {
  return {
    plugins: { 'oauth-as': false },
    mcpServers: {
      missing: { command: join(directory, 'no-such-command') },
      nomodule: { command: process.execPath, args: [join(directory, 'no-such-module.js')] },
      exits: fixtureEntry('exits-at-once', startsFile),
      fine: fixtureEntry('crashy', join(directory, 'fine')),
    },
  };
}

/**
 * The broken servers behind a fresh hub in this process (issue 59: what the hub answers is
 * the subject; the log's records are the last subtest's, on the standalone hub's logger).
 */
async function brokenHub(t: Parameters<typeof tempDir>[0]) {
  const directory = await tempDir(t);
  const startsFile = join(directory, 'starts');
  const hub = await startTestHub(t, { config: brokenConfig(directory, startsFile) });
  return { hub, startsFile };
}

function text(result: { content?: unknown }): string {
  return (result.content as { text?: string }[] | undefined)?.[0]?.text ?? '';
}

const CAUSES = {
  missing: /server "missing" could not start: cannot run ".*no-such-command": no such file, or not found on PATH \(spawn .*ENOENT\)/,
  nomodule: /server "nomodule" could not start: the process exited with code 1 \(stderr: Error[^:]*: Cannot find module '.*no-such-module\.js'/,
  exits: /server "exits" could not start: the process exited with code \d+ \(stderr: error: cannot open the database at \/nowhere\/db\.sqlite\)/,
} as const;

t.test('a call to a server that cannot start answers at once with the server and the cause', async (t) => {
  const { hub, startsFile } = await brokenHub(t);
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${hub.url}/hub`, revision);
    for (const [server, cause] of Object.entries(CAUSES)) {
      const result = await client.callTool({ name: 'call_tool', arguments: { server, tool: 'echo', arguments: {} } });
      t.ok(result.isError, `${revision} /hub ${server}: a tool error`);
      t.match(text(result), cause, `${revision} /hub ${server}: names the server and the cause`);
    }
  }
  // One start per use, no retries: the exits fixture ran once for each of the two calls
  // (the second after the short memory of the first failure had passed, or answered from it).
  t.ok(starts(startsFile).length <= 2, `the broken server was not retried within a call (${starts(startsFile).length} starts)`);
});

t.test('on /<name>/mcp every request is a JSON-RPC error naming the server and the cause, not "Unknown tool"', async (t) => {
  const { hub } = await brokenHub(t);
  for (const revision of REVISIONS) {
    for (const [server, cause] of Object.entries(CAUSES)) {
      // By hand: the plain road of a stateless call...
      const plain = await rawRequest(`${hub.url}/${server}/mcp`, revision, 'tools/call', { name: 'echo', arguments: {} });
      t.match(plain.error?.message, cause, `${revision} ${server}: plain call`);
      t.notMatch(plain.error?.message, /Unknown tool/);
      const listed = await rawRequest(`${hub.url}/${server}/mcp`, revision, 'tools/list');
      t.match(listed.error?.message, cause, `${revision} ${server}: tools/list says why rather than []`);
      // ...and through an SDK client, whose handshake already answers the failure (issue 44,
      // F4); on 2026-07-28 the SDK words a refused probe its own way, so only 2025-11-25's
      // message is the hub's.
      const connecting = connectClient(t, `${hub.url}/${server}/mcp`, revision);
      if (revision === '2025-11-25') await t.rejects(connecting, cause, `${revision} ${server}: the SDK's connect fails with the cause`);
      else await t.rejects(connecting, `${revision} ${server}: the SDK's connect fails`);
    }
  }
});

t.test('list_servers and /health show down with the reason; list_tools never claims an empty list', async (t) => {
  const { hub } = await brokenHub(t);
  const client = await connectClient(t, `${hub.url}/hub`, '2026-07-28');
  const before = (await client.callTool({ name: 'list_servers', arguments: {} })).structuredContent as { servers: Record<string, unknown>[] };
  for (const entry of before.servers) t.notOk('toolCount' in entry, `${String(entry.name)}: no tool count before the list is known`);

  const listed = await client.callTool({ name: 'list_tools', arguments: { server: 'nomodule' } });
  t.ok(listed.isError, 'list_tools of a server that cannot start is an error, not tools: []');
  t.match(text(listed), /The tools of server "nomodule" are not known.*Cannot find module/);

  const fine = await client.callTool({ name: 'list_tools', arguments: { server: 'fine' } });
  t.match(fine.structuredContent, { server: 'fine', tools: [{ name: 'echo' }] }, 'a never-started server that works is started to learn its tools');

  for (const server of Object.keys(CAUSES)) await client.callTool({ name: 'call_tool', arguments: { server, tool: 'echo' } });
  const after = (await client.callTool({ name: 'list_servers', arguments: {} })).structuredContent as { servers: { name: string; status: string; reason?: string; toolCount?: number }[] };
  for (const [server, cause] of Object.entries(CAUSES)) {
    const entry = after.servers.find((candidate) => candidate.name === server);
    t.equal(entry?.status, 'down', `${server}: down`);
    t.match(`server "${server}" could not start: ${entry?.reason}`, cause, `${server}: list_servers gives the reason`);
  }
  t.match(
    after.servers.find((entry) => entry.name === 'fine'),
    { status: 'up', toolCount: 3 },
  );

  const health = (await (await fetch(`${hub.url}/health`)).json()) as { status: string; servers: Record<string, string>; reasons: Record<string, string> };
  t.equal(health.status, 'degraded');
  t.match(health.servers, { missing: 'down', nomodule: 'down', exits: 'down', fine: 'up' });
  for (const [server, cause] of Object.entries(CAUSES)) t.match(`server "${server}" could not start: ${health.reasons[server]}`, cause, `${server}: /health gives the reason`);
});

t.test('a multi-line stderr burst is one log record, and the server is named once per record', async (t) => {
  const directory = await tempDir(t);
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { config: brokenConfig(directory, join(directory, 'starts')) });
  const client = await connectClient(t, `${hub.url}/hub`, '2026-07-28');
  await client.callTool({ name: 'call_tool', arguments: { server: 'nomodule', tool: 'echo' } });
  const record = await hub.waitForLog('the stderr record', (line) => line.stream === 'stderr' && line.msg.includes('Cannot find module'));
  t.match(record.msg, /^nomodule: [^]*Cannot find module[^]*\n\s+at /, 'the stack trace is in the one record');
  t.equal(hub.logs().filter((line) => line.stream === 'stderr' && line.server === 'nomodule').length, 1, 'one record for the whole burst');
  const raw = hub
    .log()
    .split('\n')
    .filter((line) => line.includes('"stream":"stderr"'));
  t.ok(raw.length > 0 && raw.every((line) => line.split('"server":').length === 2), 'each record carries "server" once');
  t.ok(fixture('exits-at-once'));
});
