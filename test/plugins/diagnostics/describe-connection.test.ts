import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import t from 'tap';
import type { Hub } from '../../../core/hub.js';
import { FAST, fixtureEntry, starts, tempDir } from '../../core/children/helpers.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { cliPath } from '../../helpers/cli.js';
import { startTestHub } from '../../helpers/hub.js';
import { callMeta, structuredMeta } from '../meta-tools/helpers.js';

const SIX = ['list_servers', 'list_tools', 'get_tool_schema', 'call_tool', 'wake_server', 'sleep_server'];
const elicitation = { capabilities: { elicitation: { form: {} } } };

async function diagnosticsHub(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = { MCP_DIAGNOSTICS: 'true' }) {
  const directory = await tempDir(t);
  const lazyStarts = join(directory, 'lazy');
  const started = await startTestHub(t, {
    env,
    config: { plugins: { 'map-tools': false }, mcpServers: { lazy: fixtureEntry('crashy', lazyStarts) } },
    kernel: (hub: Hub) => {
      hub.children.configure(FAST);
      hub.children.addInProcess('sink', createKitchenSink);
    },
  });
  await started.hub.children.get('sink')?.ensureUp();
  return { ...started, lazyStarts };
}

t.test('describe_connection is a seventh tool only with MCP_DIAGNOSTICS=true', async (t) => {
  const without = await diagnosticsHub(t, {});
  const plain = await connectClient(t, `${without.url}/hub`, '2026-07-28');
  t.same(
    (await plain.listTools()).tools.map((tool) => tool.name),
    SIX,
  );

  const withIt = await diagnosticsHub(t);
  const client = await connectClient(t, `${withIt.url}/hub`, '2026-07-28');
  const { tools } = await client.listTools();
  t.same(
    tools.map((tool) => tool.name),
    [...SIX, 'describe_connection'],
  );
  const tool = tools.find((candidate) => candidate.name === 'describe_connection');
  t.equal(tool?.outputSchema?.type, 'object', 'object-rooted output schema');
  t.match(tool?.annotations, { readOnlyHint: true });
});

t.test('the report on 2026-07-28 follows the decision call_tool takes', async (t) => {
  const { url, hub, lazyStarts } = await diagnosticsHub(t);
  const asking = await connectClient(t, `${url}/hub`, '2026-07-28', {}, elicitation);

  const general = await structuredMeta(t, asking, 'describe_connection');
  t.same(
    general,
    {
      era: 'modern',
      revision: '2026-07-28',
      hubVersion: hub.version,
      caller: { declaresElicitation: true },
      elicitation: { reason: 'the answer depends on the server: a question is forwarded when the server is up on a revision that asks by result' },
    },
    'without a server, wouldForward is absent',
  );

  t.match(await structuredMeta(t, asking, 'describe_connection', { server: 'sink' }), {
    elicitation: { wouldForward: true, reason: `questions from "sink" come back as the call's result` },
  });

  t.match(await structuredMeta(t, asking, 'describe_connection', { server: 'lazy' }), {
    elicitation: { wouldForward: false, reason: 'server "lazy" is sleeping and has negotiated no revision yet' },
  });
  t.equal(starts(lazyStarts).length, 0, 'the named server was not woken');

  await structuredMeta(t, asking, 'wake_server', { server: 'lazy' });
  t.match(
    await structuredMeta(t, asking, 'describe_connection', { server: 'lazy' }),
    {
      elicitation: { wouldForward: false, reason: 'server "lazy" speaks MCP 2025-11-25, whose questions would need a connection held open' },
    },
    'a stdio child on the 2025 handshake cannot ask by result',
  );

  const silent = await connectClient(t, `${url}/hub`, '2026-07-28');
  t.match(await structuredMeta(t, silent, 'describe_connection', { server: 'sink' }), {
    caller: { declaresElicitation: false },
    elicitation: { wouldForward: false, reason: 'this request did not declare the elicitation capability' },
  });

  const unknown = await callMeta(asking, 'describe_connection', { server: 'nobody' });
  t.equal(unknown.isError, true, 'an unknown server is a tool error');
});

t.test('the report on 2025-11-25 says legacy and never forwards', async (t) => {
  const { url } = await diagnosticsHub(t);
  const client = await connectClient(t, `${url}/hub`, '2025-11-25', {}, elicitation);
  t.match(await structuredMeta(t, client, 'describe_connection', { server: 'sink' }), {
    era: 'legacy',
    revision: '2025-11-25',
    elicitation: { wouldForward: false, reason: 'the hub does not offer elicitation on 2025-11-25; a child takes its own fallback' },
  });
});

t.test('the operator switch is reported', async (t) => {
  const { url } = await startTestHub(t, {
    env: { MCP_DIAGNOSTICS: 'true' },
    config: { plugins: { 'map-tools': false, 'mcp-2026-07-28': { elicitation: false } } },
    setup: (hub) => void hub.servers.addInProcess('sink', createKitchenSink),
  });
  const client = await connectClient(t, `${url}/hub`, '2026-07-28', {}, elicitation);
  t.match(await structuredMeta(t, client, 'describe_connection', { server: 'sink' }), {
    elicitation: { wouldForward: false, reason: 'the operator switched elicitation off' },
  });
});

t.test('hub-stdio serves describe_connection on both revisions', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'diagnostics-stdio-'));
  const config = join(folder, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: {}, plugins: { 'oauth-as': false, 'map-tools': false } }));
  for (const revision of REVISIONS) {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { ...elicitation, ...(revision === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath('hub-stdio')],
        env: { HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), MCP_DIAGNOSTICS: 'true', PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    t.teardown(() => client.close());
    t.match(
      await structuredMeta(t, client, 'describe_connection'),
      {
        era: revision === '2026-07-28' ? 'modern' : 'legacy',
        revision,
        caller: { declaresElicitation: true },
      },
      `${revision}: the session's declared capability is seen`,
    );
    await client.close();
  }
});
