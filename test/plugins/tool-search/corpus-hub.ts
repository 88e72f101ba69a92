import type { Client } from '@modelcontextprotocol/client';
import type { Test } from 'tap';
import { corpus, listingServer } from './corpus.js';
import { waitFor } from '../../core/children/helpers.js';
import { connectClient, type Revision } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

/** A real hub with tool-search on and every server of the catalog behind it (each lists its real tools verbatim), and a client of `/hub` once all are listed. */
export async function corpusHub(t: Test, revision: Revision = '2026-07-28'): Promise<{ client: Client; toolCount: number; serverCount: number }> {
  const servers = corpus();
  const toolCount = servers.reduce((sum, server) => sum + server.tools.length, 0);
  const { url } = await startTestHub(t, {
    config: { plugins: { 'map-tools': false, 'tool-search': true } },
    setup: (hub) => {
      for (const fixture of servers) hub.servers.addInProcess(fixture.server, listingServer(fixture));
    },
  });
  const client = await connectClient(t, `${url}/hub`, revision);
  await waitFor('every server to list its tools', async () => {
    const result = await client.callTool({ name: 'list_servers', arguments: {} });
    const listed = (result.structuredContent as { servers: { toolCount?: number }[] }).servers;
    return listed.reduce((sum, server) => sum + (server.toolCount ?? 0), 0) === toolCount;
  });
  return { client, toolCount, serverCount: servers.length };
}
