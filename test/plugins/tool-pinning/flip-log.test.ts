import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { fixture, tempDir, waitFor } from '../../core/children/helpers.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { sample } from '../observability/helpers.js';

// Issue 44, S6: a pinned child that keeps flipping a definition wrote one warning with a
// diff per flip. Each distinct definition is logged once, then counted.

const FLIPS = 4;
const listed = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

t.test('a tool flipping between an approved definition and another is logged once, and every flip counted', async (t) => {
  const folder = await tempDir(t);
  const file = join(folder, 'instructions.txt');
  await writeFile(file, 'Use styled.');
  const logs: string[] = [];
  const { url } = await startTestHub(t, {
    logs,
    config: {
      mcpServers: { styled: { command: process.execPath, args: [fixture('styled-tools')], env: { FIXTURE_INSTRUCTIONS: file }, pinTools: true } },
      plugins: { 'map-tools': false, 'tool-pinning': { approveFirstSight: true } },
    },
  });
  const client = await connectClient(t, `${url}/styled/mcp`, '2026-07-28');
  await waitFor('the first definitions to be approved', async () => (await listed(client)).includes('styled'));
  for (let flip = 0; flip < FLIPS; flip += 1) {
    await client.callTool({ name: 'restyle', arguments: { part: 'title' } });
    await waitFor('styled withheld', async () => !(await listed(client)).includes('styled'));
    await client.callTool({ name: 'restore', arguments: {} });
    await waitFor('styled back', async () => (await listed(client)).includes('styled'));
  }
  const warnings = logs.filter((line) => line.includes('"tool":"styled"') && line.includes('"cause":"changed"') && line.includes('"level":40'));
  t.equal(warnings.length, 1, `${FLIPS} flips to one definition: one warning with its diff`);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.equal(sample(metrics, 'hub_tools_withheld_total', { server: 'styled', cause: 'changed' }), FLIPS, 'and every flip counted');
});
