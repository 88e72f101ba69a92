import type { FastifyBaseLogger } from 'fastify';
import type { TSchema } from 'typebox';
import type { AdminCommand } from './cli/admin-command.js';
import { ToolCallInterceptors } from './calls/interceptors.js';
import { ChildRegistry } from './children/registry.js';
import type { UpstreamAuth } from './children/client/upstream-auth.js';
import { childWires } from './children/wires.js';
import { configFileOf, type ConfigFile } from './config/config-file.js';
import type { HubConfig } from './config/schema.js';
import { ClientLimits } from './limits/client-limits.js';
import { ListenWork } from './listen-work.js';
import type { RequestAuthenticator } from './http/authenticator.js';
import type { AccessAdmin } from './operator/api-token-admin.js';
import { QuestionRelay } from './calls/elicitation.js';
import type { MetaTool, ToolDeclarations } from './calls/meta-tool.js';
import type { McpRevision } from './revisions/revision.js';
import { OperatorLogin } from './operator/login.js';
import type { OperatorPage } from './operator/pages.js';
import type { OperatorService } from './operator/service.js';
import { OperatorWeb } from './operator/web.js';
import { Drain } from './operator/drain.js';
import { observe } from './observe.js';
import { PluginFaults } from './plugin-faults.js';
import { Registry, Slot } from './registry.js';
import type { HubSettings } from './config/settings.js';
import { openStoreLazily, type Store } from './store/index.js';
import { HUB_VERSION } from './version.js';

/**
 * The kernel's own state: the settings, the config, the registries plugins fill and the
 * services they share. Plugins never get this object: each is handed a `PluginHub`
 * (plugin-hub.ts) made from it, which registers in its name and shows servers as views.
 * It holds no protocol, OAuth or child-type knowledge of its own.
 */
export class Hub {
  readonly version = HUB_VERSION;
  /** What this hub's events carry, so that observers keep to their own hub (channels are process-wide). */
  readonly identity: object = Object.freeze({});
  readonly children: ChildRegistry;
  readonly revisions = new Registry<McpRevision>('MCP revision');
  readonly metaTools = new Registry<MetaTool>('meta-tool');
  readonly adminCommands = new Registry<AdminCommand>('admin command');
  readonly pages = new Registry<OperatorPage>('operator page');
  /** What acts on every tool call in flight, in declared order (guardrails). */
  readonly interceptors = new ToolCallInterceptors();
  /** The bearer check of the MCP endpoints (oauth-as); without one they are open, on a loopback bind only. */
  readonly authenticator = new Slot<RequestAuthenticator>('the request authenticator of the MCP endpoints');
  /** The credentials lent to remote children (upstream-oauth). */
  readonly upstreamAuth = new Slot<UpstreamAuth>('the upstream credentials of remote servers');
  /** API tokens and OAuth clients as an operator UI manages them (oauth-as). */
  readonly accessAdmin = new Slot<AccessAdmin>('the API token and OAuth client administration');
  /** How a program calls a tool (code-mode), for a meta-tool that hands out declarations of the tools it found (tool-search). */
  readonly toolDeclarations = new Slot<ToolDeclarations>('the tool declarations of code mode');
  /** First path segments taken by the kernel or a plugin (its `reservedPaths`); no server may use one as its name. */
  readonly reservedPaths = new Set(['hub', 'mcp', 'health', 'livez', 'readyz']);
  /** The servers plugins added (`servers.addInProcess`), with the plugin of each: a reload that turns a plugin off takes them out. */
  readonly pluginServers = new Map<string, string>();
  /** Server entry keys the plugins add (their `serverKeys`), with each key's schema and plugin, and whether a reload applies it at once (`liveServerKeys`). */
  readonly serverKeys = new Map<string, { schema: TSchema; plugin: string; live: boolean }>();
  /** The plugins running, in the order they were registered (for an operator's overview). */
  readonly loadedPlugins: string[] = [];
  #operator: OperatorWeb | undefined;
  /** The config file, for a plugin that edits it (the console); the kernel replaces it once the configured servers exist. */
  configFile: ConfigFile = configFileOf(this, () => undefined, undefined);

  /**
   * Re-reads the config file and applies it to the configured servers (what SIGHUP and a
   * change of the file do). False when it was refused, or when the config did not come
   * from a file; the running config then stays in force.
   */
  reloadConfig: (trigger: string) => Promise<boolean> = async (trigger) => {
    this.log.warn({ trigger }, 'nothing to reload: the config was not read from a file');
    return false;
  };

  constructor(
    readonly settings: HubSettings,
    readonly config: HubConfig,
    readonly log: FastifyBaseLogger,
    /** The folder relative paths in the config are resolved against. */
    readonly configDirectory: string,
    /** The environment the hub was started with (MONGODB_URL and plugin switches). */
    readonly env: NodeJS.ProcessEnv = process.env,
    /** The prefix the hub is registered under in its Fastify app ('' at the root). */
    readonly prefix = '',
  ) {
    this.children = new ChildRegistry(
      log,
      { name: 'mcp-hub', version: HUB_VERSION },
      {
        dataPath: settings.dataPath,
        idleTimeoutMinutes: settings.idleTimeoutMinutes,
        startTimeoutMs: settings.startTimeoutMs,
        wires: childWires(() => this.revisions.values()),
        configDirectory,
      },
    );
    this.questions = new QuestionRelay(log);
    this.faults = new PluginFaults(log, (fault) => {
      if (observe.pluginFault.active) observe.pluginFault.publish({ hub: this.identity, plugin: fault.plugin, site: fault.site });
    });
    this.store = openStoreLazily({ dataPath: settings.dataPath, mongodbUrl: env.MONGODB_URL });
    this.clientLimits = new ClientLimits(this.store, settings, () => this.now());
    this.listenWork = new ListenWork(log);
  }

  /** Opened on first use (a hub that never needs it creates no files); closed with the app. */
  readonly store: Store;

  /** What plugins' observers, hooks and callbacks threw: counted, logged once per plugin and site. */
  readonly faults: PluginFaults;

  /** What is done once the server listens and before the hub answers a request (the kernel's, and the plugins' `beforeServing`). */
  readonly listenWork: ListenWork;

  /** The shutdown drain: in-flight MCP requests finish, new ones are refused. */
  readonly drain = new Drain();
  /** CLIENT_CALLS_PER_MINUTE and CLIENT_MAX_CONCURRENT: the MCP endpoints' and code mode's program calls'. */
  readonly clientLimits: ClientLimits;
  /** The time the per-client call limit counts by; a test fixes it, so that the limit is shown by events, not by the machine's pace. */
  now: () => number = Date.now;

  /** Relays children's questions to callers, and logs each drop once per client, server and reason. */
  readonly questions: QuestionRelay;

  /**
   * The operator web service (login, session, CSRF, the page frame, prefix-aware URLs) for
   * every page a person uses; created on first use.
   */
  get operator(): OperatorService {
    return this.#operatorWeb();
  }

  /** The kernel's side of the operator service, once a plugin has added pages: it serves the login routes and makes sure a password exists. */
  get operatorPages(): OperatorWeb | undefined {
    return this.#operator?.used ? this.#operator : undefined;
  }

  #operatorWeb(): OperatorWeb {
    this.#operator ??= new OperatorWeb({
      prefix: this.prefix,
      baseUrl: this.settings.baseUrl,
      sessionSeconds: this.settings.operatorSessionMinutes * 60,
      store: this.store,
      login: new OperatorLogin(this.settings.dataPath, this.env, this.store, this.identity, this.log),
    });
    return this.#operator;
  }

  get childTypes(): ChildRegistry['types'] {
    return this.children.types;
  }

  /** What plugins withhold of the servers' tools (tool pinning). */
  get toolGates(): ChildRegistry['gates'] {
    return this.children.gates;
  }
}
