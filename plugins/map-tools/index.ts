import { Type } from 'typebox';
import { createMapRuntime } from './runtime.js';
import type { MapSettings } from './settings.js';
import { OUTPUT_SCHEMAS } from './schemas.js';
import { createMapServer } from './server.js';
import { errorMessage, definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';

export default definePlugin({
  ...manifest,
  options: Type.Object(
    {
      name: Type.String({ default: 'map', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$', description: 'The child server name (its endpoint is /<name>/mcp).' }),
      env: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          description: 'Map settings by environment variable name (MAP_*, ALT_ROUTING_API_KEY), taking precedence over the process environment.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  publicSchemas: Object.fromEntries(Object.entries(OUTPUT_SCHEMAS).map(([tool, schema]) => [`${tool}-output`, schema])),
  register(app, options, hub) {
    const runtime = createMapRuntime({ ...hub.env, ...options.env }, (line) => hub.log.info(line));
    const { osmFile } = runtime.settings;
    hub.log.info(
      { server: options.name, source: osmFile ?? 'online' },
      osmFile
        ? `map server "${options.name}": answers offline from MAP_OSM_FILE ${osmFile}`
        : `map server "${options.name}": answers from online services (${onlineHosts(runtime.settings).join(', ')}); set MAP_OSM_FILE to answer offline`,
    );
    // An offline extract loads now, not on the first call; tools that need no map answer meanwhile.
    runtime.start((error) => hub.log.error({ err: errorMessage(error) }, 'map engines failed to start; retried on the next call'));
    app.addHook('onClose', async () => runtime.close());
    hub.servers.addInProcess(options.name, () =>
      createMapServer({
        providers: runtime.providers,
        tools: runtime.tools,
        onInternalError: (tool, error) => hub.log.error({ tool, err: errorMessage(error) }, 'map tool failed'),
      }),
    );
  },
});

/** The hosts the map tools call when online, for the start-up log. */
function onlineHosts(settings: MapSettings): string[] {
  const urls = [settings.nominatimUrl, settings.photonUrl, settings.osrmUrl, settings.valhallaUrl, ...settings.overpassUrls, ...(settings.altRoutingApiKey ? [settings.altRoutingUrl] : [])];
  return [...new Set(urls.map((url) => (URL.canParse(url) ? new URL(url).host : url)))];
}
