import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import ipaddr from 'ipaddr.js';
import { Type, type Static } from 'typebox';
import { registerConfiguredServers } from './children/configured.js';
import { registerMcpEndpoints } from './mcp/endpoints.js';
import { ChildTimings } from './children/timings.js';
import { checkConfig, loadConfigFile } from './config/load.js';
import { checkDataPath, HUB_SECRET_FILES, HUB_PRIVATE_FILES } from './data-path.js';
import { StartupError } from './errors.js';
import { Hub } from './hub.js';
import { resolvePlugins } from './plugins/resolve.js';
import { HubSettings, settingsFromEnvironment } from './settings.js';

export const HubPluginOptions = Type.Object({
  config: Type.Optional(Type.Unknown({ description: 'The parsed config (mcp.json shape); when absent, the file named by HUB_CONFIG.' })),
  settings: Type.Optional(Type.Partial(HubSettings)),
  children: Type.Optional(Type.Partial(ChildTimings, { description: 'Child budgets, back-offs and pings; tests shorten them.' })),
  env: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'The environment to read; default process.env.' })),
});
export type HubPluginOptions = Static<typeof HubPluginOptions> & {
  /**
   * Called once the plugins are registered and before the configured servers are added:
   * where an embedding app adds its own in-process servers or reads the registries.
   */
  setup?: (hub: Hub) => void | Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
  }
}

const builtinDirectory = fileURLToPath(new URL('../plugins/', import.meta.url));

/**
 * The hub as an encapsulated Fastify plugin: `app.register(hub, { config, prefix })`
 * works inside any Fastify app. The standalone server registers the same plugin.
 */
export async function hub(app: FastifyInstance, options: HubPluginOptions): Promise<void> {
  const env = options.env ?? process.env;
  const settings = { ...settingsFromEnvironment(env), ...options.settings };
  const { config, source, configDirectory } =
    options.config === undefined
      ? await fromFile(settings.configFile, env)
      : { config: checkConfig(options.config, 'config', env), source: 'config', configDirectory: process.cwd() };

  const plugins = await resolvePlugins(config.plugins, { builtinDirectory, configDirectory, source, env });
  await checkDataPath(settings.dataPath, { secrets: [...HUB_SECRET_FILES, ...plugins.flatMap(({ plugin }) => plugin.secretFiles ?? [])], others: HUB_PRIVATE_FILES }, app.log);
  const context = new Hub(settings, config, app.log, configDirectory, env);
  app.decorate('hub', context);
  if (options.children) context.children.configure(options.children);

  for (const { plugin, options: pluginOptions } of plugins) {
    plugin.reservedPaths?.forEach((path) => context.reservedPaths.add(path));
    await app.register(
      fp(async (instance: FastifyInstance) => plugin.register(instance, pluginOptions as never, context), {
        name: plugin.name,
        dependencies: [...(plugin.dependencies ?? [])],
        fastify: '5.x',
        encapsulate: true,
      }),
    );
  }

  // Open MCP endpoints are tolerable on a loopback bind only (the oauth-as plugin sets the authenticator).
  if (!context.authenticator && !isLoopbackHost(settings.host)) {
    throw new StartupError(`no plugin authenticates MCP requests (is oauth-as disabled?), which is allowed only when HOST is a loopback address, and HOST is ${settings.host}`);
  }
  await options.setup?.(context);
  registerConfiguredServers(context, source);
  await context.children.loadSnapshots();
  registerMcpEndpoints(app, context);

  app.get('/health', async () => ({
    status: 'ok',
    servers: Object.fromEntries(context.children.all().map((child) => [child.name, child.status])),
  }));

  app.addHook('onReady', async () => {
    for (const child of context.children.all()) {
      if (!child.alwaysRunning) continue;
      child.ensureUp().catch((error: Error) => child.log.warn({ err: error.message }, 'always-running server did not start'));
    }
  });
  app.addHook('onClose', async () => {
    await context.children.stopAll();
    await context.store.close();
  });
}

async function fromFile(file: string, env: NodeJS.ProcessEnv) {
  const loaded = await loadConfigFile(file, env);
  return {
    config: loaded.config,
    source: loaded.file ?? 'built-in defaults',
    configDirectory: loaded.file ? dirname(loaded.file) : process.cwd(),
  };
}

function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}
