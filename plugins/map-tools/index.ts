import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin.js';
import { createMapRuntime } from './runtime.js';
import { OUTPUT_SCHEMAS } from './schemas.js';
import { createMapServer } from './server.js';

export default definePlugin({
  name: 'map-tools',
  description: 'Adds the built-in map and routing tool server (eleven OpenStreetMap tools) as an in-process child.',
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
  enabledByDefault: true,
  publicSchemas: Object.fromEntries(Object.entries(OUTPUT_SCHEMAS).map(([tool, schema]) => [`${tool}-output`, schema])),
  register(app, options, hub) {
    const runtime = createMapRuntime({ ...hub.env, ...options.env }, (line) => hub.log.info(line));
    // An offline extract loads now, not on the first call; tools that need no map answer meanwhile.
    runtime.start((error) => hub.log.error({ err: error instanceof Error ? error.message : String(error) }, 'map engines failed to start; retried on the next call'));
    app.addHook('onClose', async () => runtime.close());
    hub.children.addInProcess(options.name, () =>
      createMapServer({
        providers: runtime.providers,
        tools: runtime.tools,
        onInternalError: (tool, error) => hub.log.error({ tool, err: error instanceof Error ? error.message : String(error) }, 'map tool failed'),
      }),
    );
  },
});
