// The first call of the README: /hub and /map/mcp, on both MCP revisions, with the API
// token in $TOKEN (from `hub-admin tokens mint`). It finds the hub as hub-admin does: at
// BASE_URL when set, else on loopback at PORT (3000 by default, what `npm start` uses).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const base = (process.env.BASE_URL?.trim() || `http://127.0.0.1:${process.env.PORT?.trim() || 3000}`).replace(/\/+$/, '');
const requestInit = { headers: { Authorization: `Bearer ${process.env.TOKEN}` } };

for (const revision of ['2026-07-28', '2025-11-25']) {
  // A client pinned to 2026-07-28, or one that speaks 2025-11-25 (the SDK's default).
  const options = revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : {};
  const connect = async (path) => {
    const client = new Client({ name: 'first-call', version: '1.0.0' }, options);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`), { requestInit }));
    return client;
  };
  const hub = await connect('/hub');
  const servers = await hub.callTool({ name: 'list_servers', arguments: {} });
  console.log(`${revision} /hub list_servers: ${servers.content[0].text}`);
  const map = await connect('/map/mcp');
  const distance = await map.callTool({ name: 'straight_line_distance', arguments: { from: '43.7314,7.4199', to: '43.7396,7.4278' } });
  console.log(`${revision} /map/mcp straight_line_distance: ${distance.content[0].text}`);
  await hub.close();
  await map.close();
}
