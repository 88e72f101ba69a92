import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import ipaddr from 'ipaddr.js';
import { Type, type Static } from 'typebox';
import { recordAccess } from './access-log.js';
import { ConfiguredServers } from './children/configured.js';
import { discardBody } from './http/discard-body.js';
import { registerMcpEndpoints } from './http/endpoints.js';
import { ChildTimings } from './children/timings.js';
import { configFileOf } from './config/config-file.js';
import { checkConfig, loadConfigFile } from './config/load.js';
import { ConfigReloader } from './config/reload.js';
import type { HubConfig } from './config/schema.js';
import type { HubPlugin } from './plugin.js';
import { checkDataPath } from './store/data-path.js';
import { registerHealthRoutes } from './http/health.js';
import { HUB_ERROR_CODES, StartupError, errorMessage } from './errors.js';
import { Hub } from './hub.js';
import { AllowedHosts, checkHostOnEveryRoute } from './net/allowed-hosts.js';
import { KEPT_ALIVE_LINGER_MS, KeptAliveConnections } from './net/kept-alive.js';
import { onClose } from './net/on-close.js';
import { endSessionsOnPasswordChange } from './operator/password-change.js';
import { sessionsCommand } from './operator/sessions-command.js';
import { observe } from './observe.js';
import { pluginHub, type PluginHub } from './plugin-hub.js';
import { resolvePlugins } from './plugins/resolve.js';
import { checkServedSurface } from './served-surface.js';
import { checkPrivateFiles, HUB_PRIVATE_FILES, HUB_SECRET_FILES } from './store/private-files.js';
import { withSecretFiles } from './config/secret-files.js';
import { HubSettings, settingsFromEnvironment } from './config/settings.js';

export const HubPluginOptions = Type.Object({
  config: Type.Optional(Type.Unknown({ description: 'The parsed config (mcp.json shape); when absent, the file named by HUB_CONFIG.' })),
  settings: Type.Optional(Type.Partial(HubSettings)),
  children: Type.Optional(Type.Partial(ChildTimings, { description: 'Child budgets, back-offs and pings; tests shorten them.' })),
  env: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'The environment to read; default process.env.' })),
  watchConfig: Type.Optional(Type.Boolean({ description: 'Reload when the config file changes (default true); SIGHUP reloads either way.' })),
});
/**
 * Hands the kernel's own `Hub` to code of the kernel's (the standalone server, the CLIs,
 * the tests), which import it from core; it is no part of the package's entries.
 */
export const onKernel = Symbol('onKernel');

export type HubPluginOptions = Static<typeof HubPluginOptions> & {
  /**
   * Called once the plugins are registered and before the configured servers are added:
   * where an embedding app adds its own in-process servers or reads the registries, with
   * the hub as plugins see it (what it registers is the app's).
   */
  setup?: (hub: PluginHub) => void | Promise<void>;
  [onKernel]?: (hub: Hub) => void;
  /**
   * Builds the hub for `hub-admin`: a server entry that fails its checks is left out and
   * told to `leftOut` instead of stopping start-up (token and client commands need no
   * server), no server is started and the config file is not watched.
   */
  admin?: { leftOut(problem: string, server: string): void };
  /**
   * At shutdown, connections kept alive are told `Connection: close` from the start of the
   * drain and given up to a second to come back for their last answer, rather than meeting a
   * reset when the listener closes (core/net/kept-alive.ts). The standalone `hub` does this
   * at SIGTERM; an app that embeds the hub owns its server and its close, and a test's close
   * does not wait.
   */
  closeKeptAliveGently?: boolean;
};

/** The name under which an embedding app's `setup` registers. */
const APP_OWNER = 'app';

const builtinDirectory = fileURLToPath(new URL('../plugins/', import.meta.url));
/** An editor's save is several file events: the reload waits until they have been quiet this long. */
const CONFIG_DEBOUNCE_MS = 300;
/** Calls cut at the end of the drain answer at once (their servers are stopped); this bounds it. */
export const CUT_GRACE_MS = 2_000;

/**
 * The hub as an encapsulated Fastify plugin: `app.register(hub, { config, prefix })`
 * works inside any Fastify app. The standalone server registers the same plugin.
 */
export async function hub(app: FastifyInstance, options: HubPluginOptions): Promise<void> {
  const env = await withSecretFiles(options.env ?? process.env);
  const settings = { ...settingsFromEnvironment(env), ...options.settings };
  let followAddress: (() => void) | undefined;
  if (options.settings?.baseUrl === undefined && !env.BASE_URL?.trim()) {
    followAddress = followListeningAddress(app, settings, Boolean(env.HOST?.trim()));
    if (settings.host === '0.0.0.0' || settings.host === '::') {
      app.log.warn(
        { host: settings.host },
        `HOST is ${settings.host} and BASE_URL is unset: the URLs the hub publishes (OAuth metadata, token audiences, page links) name ${settings.host}, which no client can reach; set BASE_URL to the URL clients use`,
      );
    }
  }
  const { config, source, configDirectory, file } =
    options.config === undefined ? await fromFile(settings.configFile, env) : { config: checkConfig(options.config, 'config', env), source: 'config', configDirectory: process.cwd(), file: undefined };
  await checkDataPath(settings.dataPath);

  const configured = options.config !== undefined || file !== undefined;
  const plugins = await resolvePlugins(config.plugins, { builtinDirectory, configDirectory, source, env, configured });
  await checkPrivateFiles(settings.dataPath, { secrets: [...HUB_SECRET_FILES, ...plugins.flatMap(({ plugin }) => plugin.secretFiles ?? [])], others: HUB_PRIVATE_FILES }, app.log);
  const context = new Hub(settings, config, app.log, configDirectory, env, app.prefix);
  options[onKernel]?.(context);
  // What must be done once the server listens is started the moment it does, and the hub's
  // routes hold every request until it is done (core/listen-work.ts says why not onListen).
  if (!options.admin) {
    app.server.once('listening', () => {
      followAddress?.();
      context.listenWork.start();
    });
    app.addHook('onRequest', (request, reply, done) => {
      const pending = context.listenWork.pending;
      if (!pending || request.routeOptions.config.whileStarting === true) return done();
      pending.then(
        () => done(),
        () => void reply.code(503).header('retry-after', '5').send({ status: 'the hub did not finish starting; its log says why' }),
      );
    });
  }
  recordAccess(app);
  checkHostOnEveryRoute(app, new AllowedHosts(context.settings));
  // A callback hook: every request passes it, and an async one costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    // The raw response: answers written on it (the MCP endpoints) skip Fastify's own onResponse.
    if (observe.httpRequest.active)
      onClose(reply.raw, () => observe.httpRequest.publish({ hub: context.identity, route: request.routeOptions.url, method: request.method, status: reply.raw.statusCode }));
    done();
  });
  // A body refused for its size on any route (the token endpoint, the login form, the MCP
  // endpoints): what is left of it is read and thrown away before the 413 goes out, since
  // a socket closed with bytes unread is reset and the client loses the answer.
  app.addHook('onError', async (request, _reply, error) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') await discardBody(request.raw);
  });
  // The sockets kept alive get their last answer with `Connection: close` rather than a reset when the listener closes.
  const keptAlive = options.closeKeptAliveGently && !options.admin ? new KeptAliveConnections(app.server) : undefined;
  if (keptAlive) {
    // Once the drain is over, what comes back on a kept-alive socket is told so, whatever the route.
    app.addHook('onRequest', (_request, reply, done) => {
      if (!keptAlive.lingering) return done();
      void reply.code(503).header('connection', 'close').header('retry-after', '1').send({ status: 'shutting down' });
    });
  }
  if (options.children) context.children.configure(options.children);

  for (const { plugin, options: pluginOptions } of plugins) {
    context.loadedPlugins.push(plugin.name);
    plugin.reservedPaths?.forEach((path) => context.reservedPaths.add(path));
    for (const [key, schema] of Object.entries(plugin.serverKeys ?? {})) context.serverKeys.set(key, { schema, plugin: plugin.name, live: plugin.liveServerKeys?.includes(key) === true });
    await app.register(
      fp(async (instance: FastifyInstance) => plugin.register(instance, pluginOptions as never, pluginHub(context, plugin.name)), {
        name: plugin.name,
        dependencies: [...(plugin.dependencies ?? [])],
        fastify: '5.x',
        encapsulate: true,
      }),
    );
  }

  context.adminCommands.add('sessions', sessionsCommand(context.store));
  const operatorPages = context.operatorPages;
  if (operatorPages) {
    ['login', 'logout'].forEach((path) => context.reservedPaths.add(path));
    await operatorPages.registerRoutes(app);
    // Generated and printed by the serving hub only, not by hub-admin building the same hub;
    // so is a rotated password's end of the operator sessions, done before any request is
    // answered: a login in between would outlive the rotation.
    context.listenWork.add('kernel', async () => {
      const passwordHash = await operatorPages.login.password.ensure();
      await endSessionsOnPasswordChange(context.store, passwordHash, settings.operatorSessionsOnPasswordChange === 'keep', app.log);
    });
  }

  // Open MCP endpoints are tolerable on a loopback bind only (the oauth-as plugin sets the authenticator).
  if (!context.authenticator.value && !isLoopbackHost(settings.host)) {
    throw new StartupError(`no plugin authenticates MCP requests (is oauth-as disabled?), which is allowed only when HOST is a loopback address, and HOST is ${settings.host}`, {
      code: HUB_ERROR_CODES.UNAUTHENTICATED_HOST,
    });
  }
  await options.setup?.(pluginHub(context, APP_OWNER));
  const servers = new ConfiguredServers(context);
  const entries = servers.check(config, source, options.admin?.leftOut.bind(options.admin));
  for (const warning of servers.typos(config)) app.log.warn({ config: source }, warning);
  const { warnings, disabled, adopted } = servers.notices(config);
  for (const warning of warnings) app.log.warn({ config: source }, warning);
  for (const note of adopted) app.log.info({ config: source }, `written for another client: ${note}`);
  if (disabled.length > 0) app.log.info({ config: source, servers: disabled }, 'servers marked "disabled": true are not served');
  servers.add(entries);
  if (!options.admin) checkServedSurface(context, app.log, entries.size);
  await context.children.loadSnapshots();
  registerMcpEndpoints(app, context);
  registerHealthRoutes(app, context);

  // A config file that does not exist yet is watched for all the same: it is read when it appears.
  const reloadFile = file ?? (options.config === undefined ? resolve(settings.configFile) : undefined);
  if (reloadFile !== undefined) {
    const reloader = new ConfigReloader({
      file: reloadFile,
      env,
      servers,
      plugins: config.plugins,
      takeOutPluginServers: async (next) => {
        const off = offUnder(plugins, next, env);
        const taken = [...context.pluginServers].filter(([server, owner]) => off.includes(owner) && context.children.get(server) !== undefined);
        if (taken.length === 0) return [];
        app.log.warn(
          { plugins: off, servers: taken.map(([server]) => server) },
          `the config turns off ${off.map((name) => `"${name}"`).join(', ')}: the servers it provides are taken out as a restart would; the rest of it stays until the next restart`,
        );
        await Promise.all(taken.map(([server]) => context.children.remove(server)));
        return taken.map(([server]) => server);
      },
      log: app.log,
      onResult: (result) => {
        if (!observe.configReload.active) return;
        observe.configReload.publish(
          result.outcome === 'applied'
            ? {
                hub: context.identity,
                trigger: result.trigger,
                outcome: 'applied',
                error: undefined,
                added: result.added,
                removed: result.removed,
                restarted: result.restarted,
                retuned: result.retuned,
              }
            : { hub: context.identity, trigger: result.trigger, outcome: 'refused', error: result.error, added: [], removed: [], restarted: [], retuned: [] },
        );
      },
    });
    context.reloadConfig = (trigger) => reloader.reload(trigger);
    context.configFile = configFileOf(context, () => servers, reloadFile);
    const stopWatching = options.watchConfig === false || options.admin ? undefined : reloader.watch(CONFIG_DEBOUNCE_MS);
    if (stopWatching) app.addHook('onClose', async () => stopWatching());
  }

  app.addHook('onReady', async () => {
    if (options.admin) return;
    for (const child of context.children.all()) {
      if (!child.alwaysRunning) continue;
      child.ensureUp().catch((error: unknown) => child.log.warn({ err: errorMessage(error) }, 'always-running server did not start'));
    }
  });
  // Before the server stops listening: /readyz says 503 from the first moment, calls in
  // flight finish or are cut with an answer, and only then are connections closed.
  app.addHook('preClose', async () => {
    const { drainTimeoutMs } = settings;
    keptAlive?.startClosing();
    if (context.drain.inFlight > 0) app.log.info({ inFlight: context.drain.inFlight, drainTimeoutMs }, 'draining: waiting for calls in flight');
    const cut = await context.drain.run(drainTimeoutMs, () => context.children.stopAll(), CUT_GRACE_MS);
    if (cut > 0) app.log.warn({ cut, drainTimeoutMs }, `${cut} calls still running after DRAIN_TIMEOUT_MS were cut`);
    await keptAlive?.lingerIdle(Math.min(KEPT_ALIVE_LINGER_MS, drainTimeoutMs));
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
    configDirectory: dirname(resolve(loaded.file ?? file)),
    file: loaded.file,
  };
}

/**
 * Without BASE_URL (or `settings.baseUrl`), the base URL is where the hub is actually
 * served: the port the server listens on (PORT=0, or an embedding app's own port), the
 * address it listens on unless HOST names one or it is a wildcard, and the prefix the hub
 * is registered under. Until the server listens it is `http://HOST:PORT<prefix>`; what
 * plugins publish reads it when asked, so metadata, token audiences and the Host check
 * agree with the URL clients use. Returns what sets it from the address, called once the
 * server listens, before the work that notes it (`ListenWork`).
 */
function followListeningAddress(app: FastifyInstance, settings: HubSettings, hostGiven: boolean): () => void {
  const prefix = app.prefix.replace(/\/+$/, '');
  let baseUrl = `${settings.baseUrl}${prefix}`;
  Object.defineProperty(settings, 'baseUrl', { get: () => baseUrl, enumerable: true, configurable: true });
  return () => {
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) return;
    const wildcard = address.address === '0.0.0.0' || address.address === '::';
    const host = hostGiven || wildcard ? settings.host : address.address;
    baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}${prefix}`;
  };
}

function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}

/**
 * The running plugins a config would not start (named `false`, or on by default only without
 * a config file, as map-tools is): a restart with it would leave their servers out.
 */
function offUnder(plugins: readonly { plugin: HubPlugin }[], config: HubConfig, env: NodeJS.ProcessEnv): string[] {
  return plugins.flatMap(({ plugin }) => {
    const selected = config.plugins?.[plugin.name];
    if (selected === false) return [plugin.name];
    if (selected !== undefined) return [];
    const byDefault = plugin.enabledByDefault;
    return typeof byDefault === 'function' && !byDefault(env, { configured: true }) ? [plugin.name] : [];
  });
}
