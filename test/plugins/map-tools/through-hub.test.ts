import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { KNOWN_PLACES, MONACO_PBF } from './offline/extract.js';

/**
 * The quick start with MAP_OSM_FILE: the built-in map child answers from the Monaco
 * extract through the hub's own endpoint, on both revisions.
 */
t.test('the map tools answer offline through /map/mcp on both revisions', async (t) => {
  const { url, hub } = await startTestHub(t, { config: { plugins: { 'map-tools': true } }, env: { MAP_OSM_FILE: MONACO_PBF } });
  await hub.children.get('map')?.ensureUp();
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/map/mcp`, revision);
    const { tools } = await client.listTools();
    t.equal(tools.length, 11, `${revision}: eleven tools`);
    t.ok(
      tools.every((tool) => tool.annotations?.readOnlyHint === true && tool.outputSchema),
      `${revision}: all read-only, all with an output schema`,
    );
    const geocoded = await client.callTool({ name: 'geocode', arguments: { query: KNOWN_PLACES.square.query } });
    t.notOk(geocoded.isError, `${revision}: geocode succeeds`);
    t.match(geocoded.structuredContent, { untrusted: true, source: 'openstreetmap' });
    const route = await client.callTool({ name: 'route', arguments: { waypoints: [KNOWN_PLACES.museum.query, KNOWN_PLACES.square.query], profile: 'foot' } });
    t.notOk(route.isError, `${revision}: a foot route between two named places`);
    t.match(route.structuredContent, { untrusted: true, source: 'openstreetmap' });

    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const viaHub = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'map', tool: 'geocode', arguments: { query: KNOWN_PLACES.stadium.query } } });
    t.notOk(viaHub.isError, `${revision}: /hub call_tool reaches the map tools`);
    t.same(viaHub.structuredContent, (await client.callTool({ name: 'geocode', arguments: { query: KNOWN_PLACES.stadium.query } })).structuredContent, `${revision}: the same answer as /map/mcp`);
  }
});
