import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { fixtureEntry, isAlive, starts, tempDir, waitFor } from '../children/helpers.js';

// Issue 32, items 3 and 7: keys other clients write into mcpServers, and what a reload or
// a crash tells the operator. The standalone hub runs in this process (its config file
// watched, its log going to a file, its children real processes): the subject is what it
// serves and logs, not its own process.

const plugins = { 'oauth-as': false, 'map-tools': false };
const LOG = { LOG_LEVEL: 'info' };

t.test('"disabled" servers are not served, a per-server "timeout" applies, keys the hub ignores are named once', async (t) => {
  const directory = await tempDir(t);
  const hub = await startStandaloneHub(t, LOG, {
    config: {
      plugins,
      mcpServers: {
        off: { ...fixtureEntry('crashy', join(directory, 'off')), disabled: true },
        // Broken but disabled: a disabled entry is not even checked, as clients skip it.
        offAndBroken: { type: 'no-such-type', disabled: true },
        quick: { ...fixtureEntry('slow-start', join(directory, 'quick'), { env: { START_DELAY_MS: '0' } }), timeout: 1000 },
        copied: { ...fixtureEntry('crashy', join(directory, 'copied')), autoApprove: ['echo'], disabledTools: ['crash'], timeout: 60 },
      },
    },
  });
  // The log is written asynchronously: the start-up records may still be on their way.
  await hub.waitForLog('the disabled servers named', (line) => line.msg === 'servers marked "disabled": true are not served');
  await hub.waitForLog('the third warning', (line) => line.level === 40 && line.msg.startsWith('mcpServers.copied: "timeout"'));
  const warnings = hub
    .logs()
    .filter((line) => line.level === 40)
    .map((line) => line.msg);
  t.same(
    warnings.filter((line) => line.startsWith('mcpServers.copied')),
    [
      'mcpServers.copied: "autoApprove" is not acted on by the hub (Cline\'s list of tools run without asking; approval is up to the client that calls the hub)',
      'mcpServers.copied: "disabledTools" is not acted on by the hub (Windsurf\'s and Roo Code\'s hidden tools; the hub\'s key is "denyTools")',
      'mcpServers.copied: "timeout" is in milliseconds, as in Claude Code, and 60 is under a second, so it is ignored (Cline\'s "timeout" counts seconds: 60 seconds is 60000)',
    ],
    'one warning per key, naming the server',
  );
  t.match(
    hub.logs().find((line) => line.msg === 'servers marked "disabled": true are not served'),
    { servers: ['off', 'offAndBroken'] },
  );

  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${hub.url}/hub`, revision);
    const listed = (await client.callTool({ name: 'list_servers', arguments: {} })).structuredContent as { servers: { name: string }[] };
    t.same(listed.servers.map((server) => server.name).sort(), ['copied', 'quick'], `${revision}: a disabled server is not listed`);
  }
  const off = await fetch(`${hub.url}/off/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });
  t.equal(off.status, 404, 'nor has it an endpoint');
  t.same(starts(join(directory, 'off')), [], 'nor is it started');

  const client = await connectClient(t, `${hub.url}/quick/mcp`, '2026-07-28');
  const late = await client.callTool({ name: 'wait', arguments: { ms: 60_000 } });
  t.equal(late.isError, true, "a call past the server's own timeout fails");
  t.match(late.content, [{ text: /^Tool call failed: server "quick": .*timed out/i }]);
  const ignored = await connectClient(t, `${hub.url}/copied/mcp`, '2026-07-28');
  t.match((await ignored.callTool({ name: 'echo', arguments: {} })).content, [{ text: 'ok' }], 'a timeout under a second is not applied');

  // A reload that changes nothing about these keys says nothing again.
  await writeFile(
    hub.configFile,
    JSON.stringify({
      plugins,
      mcpServers: {
        quick: { ...fixtureEntry('slow-start', join(directory, 'quick'), { env: { START_DELAY_MS: '0' } }), timeout: 1000 },
        copied: { ...fixtureEntry('crashy', join(directory, 'copied')), autoApprove: ['echo'], disabledTools: ['crash'], timeout: 60 },
      },
    }),
  );
  await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded');
  t.equal(hub.logs().filter((line) => line.level === 40 && line.msg.startsWith('mcpServers.copied')).length, 3, 'warned once');
});

t.test('changing only the tool filters applies them without restarting the server', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const entry = fixtureEntry('crashy', file);
  const hub = await startStandaloneHub(t, LOG, { config: { plugins, mcpServers: { filtered: entry } } });
  const client = await connectClient(t, `${hub.url}/filtered/mcp`, '2026-07-28');
  t.same((await client.listTools()).tools.map((tool) => tool.name).sort(), ['crash', 'echo', 'freeze']);
  const pid = starts(file)[0]?.pid ?? 0;

  await writeFile(hub.configFile, JSON.stringify({ plugins, mcpServers: { filtered: { ...entry, denyTools: ['crash', 'freeze'] } } }));
  t.match(await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded'), { retuned: ['filtered'], restarted: [] });
  t.same(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['echo'],
    'the new filter applies',
  );
  t.equal(starts(file).length, 1, 'on the same process');
  t.ok(isAlive(pid), 'which still runs');

  await writeFile(hub.configFile, JSON.stringify({ plugins, mcpServers: { filtered: { ...entry, allowTools: ['crash'] } } }));
  await waitFor('the second reload', () => hub.logs().filter((line) => line.msg === 'config reloaded').length === 2);
  t.same(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['crash'],
  );
  t.equal(starts(file).length, 1, 'still no restart');
});

t.test('a child killed by a signal is reported with the signal, not its last stderr line', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  // slow-start prints "warming up slowly" on stderr at start, as many servers print a banner.
  const hub = await startStandaloneHub(t, LOG, { config: { plugins, mcpServers: { victim: fixtureEntry('slow-start', file, { env: { START_DELAY_MS: '0' } }) } } });
  const client = await connectClient(t, `${hub.url}/victim/mcp`, '2026-07-28');
  await client.listTools();
  process.kill(starts(file)[0]?.pid ?? 0, 'SIGKILL');
  const closed = await hub.waitForLog('the crash', (line) => line.msg === 'child connection closed');
  t.equal(closed.reason, 'the process was killed by SIGKILL');
});
