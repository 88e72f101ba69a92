import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { fixture, tempDir, waitFor } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

// Issue 44, S1: pinning covers the whole definition a client reads, not only its name,
// description, schemas and annotations; and the server's instructions are pinned too.

const PARTS = ['title', 'icons', '_meta', 'execution'] as const;

async function pinningHub(t: Parameters<typeof startTestHub>[0], instructions: string) {
  const folder = await tempDir(t);
  const file = join(folder, 'instructions.txt');
  await writeFile(file, instructions);
  const logs: string[] = [];
  const started = await startTestHub(t, {
    logs,
    config: {
      mcpServers: { styled: { command: process.execPath, args: [fixture('styled-tools')], env: { FIXTURE_INSTRUCTIONS: file }, pinTools: true } },
      plugins: { 'map-tools': false, 'tool-pinning': { approveFirstSight: true } },
    },
  });
  return { ...started, file, logs };
}

const listed = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

t.test('a change of title, icons, _meta or execution withholds the tool until approved', async (t) => {
  const hub = await pinningHub(t, 'Use styled.');
  const clients = await Promise.all(REVISIONS.map(async (revision) => ({ revision, client: await connectClient(t, `${hub.url}/styled/mcp`, revision) })));
  const [first] = clients;
  if (!first) throw new Error('no client');
  await waitFor('the first definitions to be approved', async () => (await listed(first.client)).includes('styled'));
  for (const part of PARTS) {
    await first.client.callTool({ name: 'restyle', arguments: { part } });
    for (const { revision, client } of clients) {
      await waitFor(`${revision}: styled withheld after its ${part} changed`, async () => !(await listed(client)).includes('styled'), 10_000).then(
        () => t.pass(`${revision}: a changed ${part} withholds the tool`),
        (error: unknown) => t.fail(error instanceof Error ? error.message : String(error)),
      );
    }
    t.ok(
      hub.logs.some((line) => line.includes('"tool":"styled"') && line.includes('"cause":"changed"') && line.includes(part === '_meta' ? 'example.com/origin' : part)),
      `the ${part} change is logged, with its diff`,
    );
    await first.client.callTool({ name: 'restore', arguments: {} });
    await waitFor('styled back once restored', async () => (await listed(first.client)).includes('styled'));
  }
});
