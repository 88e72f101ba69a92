import { errorMessage, definePlugin } from '../../core/plugin/index.js';
import type { ChildType } from '../../core/plugin/child-type.js';
import { LifecycleOpenApiOptions, type OpenApiEntry as Entry, OpenApiEntry } from './entry.js';
import manifest from './manifest.js';
import type { OpenApiRuntime } from './runtime.js';

/**
 * REST APIs described by OpenAPI documents, as always-running in-process MCP servers.
 * Built on the published child-type surface only. The parser, the schema tools and undici
 * are imported with `runtime.js` by the first connect or check of an `openapi` server, so
 * a hub without one loads only this file and its entry schema.
 */
export default definePlugin({
  ...manifest,
  options: LifecycleOpenApiOptions,
  async register(app, options, hub) {
    let runtime: Promise<OpenApiRuntime> | undefined;
    const loaded = (): Promise<OpenApiRuntime> =>
      (runtime ??= import('./runtime.js').then(
        ({ OpenApiRuntime }) => new OpenApiRuntime({ options, configDirectory: hub.configDirectory, version: hub.version, upstreamAuth: () => hub.upstreamAuth.current }),
      ));
    const type: ChildType = {
      type: 'openapi',
      entrySchema: OpenApiEntry,
      alwaysRunning: () => true,
      // The tools come from the document, read at every connect; nothing to keep on disk.
      snapshots: false,
      async connect(entry, context) {
        return (await loaded()).connect(entry as Entry, context);
      },
      async check(entry) {
        try {
          return await (await loaded()).check(entry as Entry);
        } catch (error) {
          return { ok: false, detail: (error as Error).message };
        }
      },
    };
    hub.childTypes.add(type.type, type);
    // With an openapi server configured the parser is needed at once: loaded before the hub listens.
    if (Object.values(hub.config.mcpServers ?? {}).some((entry) => entry.type === 'openapi' && entry.disabled !== true)) await loaded();

    // A reload reads the documents again: servers it restarted read them at their connect, the others are restarted here.
    const unsubscribe = hub.observe.configReload.subscribe((event) => {
      if (event.outcome !== 'applied' || runtime === undefined) return;
      void runtime.then((current) => current.forget());
      const restartedAlready = new Set([...event.added, ...event.restarted]);
      for (const server of hub.servers.list()) {
        if (server.entry.type !== 'openapi' || restartedAlready.has(server.name)) continue;
        server.restart().catch((error: unknown) => hub.log.warn({ server: server.name, err: errorMessage(error) }, `server "${server.name}": could not restart to read its OpenAPI document again`));
      }
    });
    app.addHook('onClose', async () => unsubscribe());
  },
});
