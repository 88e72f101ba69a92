import type { CallToolRequestParams, McpServerFactory } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { AdminCommand } from './cli/admin-command.js';
import type { ChildStartEvent } from './children/child-observer.js';
import type { ChildTransition } from './children/child-states.js';
import type { ChildType } from './children/child-type.js';
import type { ToolGate } from './children/tool-gates.js';
import type { Child } from './children/child.js';
import type { ServerView } from './children/server-view.js';
import type { UpstreamAuth } from './children/client/upstream-auth.js';
import type { ConfigFile } from './config/config-file.js';
import type { HubConfig, ServerEntry } from './config/schema.js';
import type { Hub } from './hub.js';
import type { LimitRefusal } from './limits/client-limits.js';
import type { RequestAuthenticator } from './http/authenticator.js';
import { runToolCall } from './calls/pipeline.js';
import type { ToolCallInterceptor } from './calls/interceptors.js';
import { toolCallOf } from './calls/tool-call.js';
import { unknownServer, unknownTool, type ServerToolAnswer } from './calls/unknown-target.js';
import type { MetaToolContext, MetaTool, ToolDeclarations } from './calls/meta-tool.js';
import type { McpRevision } from './revisions/revision.js';
import { observe as hubObserve, topicsOf, type HubTopics, type Isolate } from './observe.js';
import type { AccessAdmin } from './operator/api-token-admin.js';
import type { OperatorPage } from './operator/pages.js';
import type { OperatorService } from './operator/service.js';
import type { Registry, Slot } from './registry.js';
import type { HubSettings } from './config/settings.js';
import type { Store } from './store/index.js';

/** A registry a plugin fills: what it adds is registered in its name, and a name taken by another plugin is refused, naming both. */
export interface PluginRegistry<T> {
  add(name: string, value: T): void;
  get(name: string): T | undefined;
  has(name: string): boolean;
  names(): string[];
  values(): T[];
}

/** A service only one plugin may provide; a second provider fails start-up, naming both plugins. */
export interface ProvidedService<T> {
  provide(value: T): void;
  /** The service, when a plugin provides it. */
  readonly current: T | undefined;
}

/** Hears every server's lifecycle (metrics, audit, a search index), synchronously; an observer that throws is logged and the server goes on. */
export interface ServerObserver {
  transition?(server: ServerView, event: ChildTransition): void;
  start?(server: ServerView, event: ChildStartEvent): void;
  /**
   * The tools callers get of `server` may read differently: it reported a change (and the
   * hub re-read its list), a snapshot was adopted, or a tool gate changed its mind. Read
   * `server.tools` again; nothing is asked of the server.
   */
  toolsChanged?(server: ServerView): void;
}

/** The per-client limits of the MCP endpoints, for a call made for a client inside one of its requests (code mode's program calls). */
export interface ClientCallLimits {
  /**
   * Counts one call of `client` against CLIENT_CALLS_PER_MINUTE and holds one of its
   * CLIENT_MAX_CONCURRENT slots, as a request to an MCP endpoint does: the release of the
   * slot (call it when the call ends), or the refusal, with the text an endpoint's 429 gives.
   */
  admit(client: string): Promise<(() => void) | LimitRefusal>;
}

/** The configured servers, as plugins see them. */
export interface Servers {
  get(name: string): ServerView | undefined;
  list(): ServerView[];
  /** Hears every server's status changes and starts, also of servers added later. Returns the unsubscribe. */
  observe(observer: ServerObserver): () => void;
  /** Called with the name of every server a reload takes out. Returns the unsubscribe. */
  onRemoved(listener: (name: string) => void): () => void;
  /** Adds a server that lives in this process; `entry` takes the hub's own keys (`hub`, `allowTools`, `denyTools`). */
  addInProcess(name: string, factory: McpServerFactory, entry?: ServerEntry): ServerView;
  /**
   * Calls the tool `params.name` of `server` (its view, or its name) for the caller of a
   * meta-tool (`/hub`): looks it up, wakes the server, carries progress, cancellation, a
   * question and the timeout as the server's own endpoint does, and returns the result as
   * the caller's revision delivers it; observers hear the call with its outcome, refusals
   * included. An `UnknownTarget` (`isUnknownTarget`) when the server is not configured (any
   * more), or has no such tool for callers (unknown, kept out by its filter, or not shown to
   * the caller's revision): its `message` is the words to tell the caller.
   * The server's own protocol error is thrown as it came; a server that cannot start
   * throws its HubError, and a `hub: false` server `HUB_ERR_SERVER_HIDDEN`; any other
   * failure is a tool error naming the server. A server the caller may not reach
   * (`mayReach`) and a tool a tool gate withholds are refused with a tool error, whatever
   * the meta-tool checked before.
   */
  callTool(server: ServerView | string, params: CallToolRequestParams, context: MetaToolContext): Promise<ServerToolAnswer>;
}

/**
 * What a plugin's `register` is handed: the registries it fills, read-only views of the
 * servers, the store, the settings, the log and the shared services. Made for each plugin
 * from the kernel, whose own objects it never exposes.
 */
export interface PluginHub {
  /** The plugin this was made for: what it registers is registered in this name. */
  readonly plugin: string;
  readonly version: string;
  /** The names of the plugins running, in the order they were registered (the later ones once their turn comes). */
  readonly loadedPlugins: readonly string[];
  readonly settings: Readonly<HubSettings>;
  readonly config: Readonly<HubConfig>;
  /** The environment the hub was started with. */
  readonly env: Readonly<NodeJS.ProcessEnv>;
  /** The folder relative paths in the config are resolved against. */
  readonly configDirectory: string;
  readonly log: FastifyBaseLogger;
  /** MongoDB or the embedded default, same contract; opened on first use. */
  readonly store: Store;
  readonly childTypes: PluginRegistry<ChildType>;
  /** MCP revisions, by revision string. */
  readonly revisions: PluginRegistry<McpRevision>;
  readonly metaTools: PluginRegistry<MetaTool>;
  readonly adminCommands: PluginRegistry<AdminCommand>;
  /** Pages for the hub's operators, so operator pages can link to one another. */
  readonly pages: PluginRegistry<OperatorPage>;
  /** What plugins withhold of the servers' tools, on every endpoint (tool pinning). */
  readonly toolGates: PluginRegistry<ToolGate>;
  /** What acts on every tool call in flight (refuses it, replaces its arguments or result): see `mcp-switchyard/plugin/interceptor`. */
  readonly interceptors: PluginRegistry<ToolCallInterceptor>;
  /** The bearer check of the MCP endpoints; without one they are open, on a loopback bind only. */
  readonly authenticator: ProvidedService<RequestAuthenticator>;
  /** The credentials lent to remote children. */
  readonly upstreamAuth: ProvidedService<UpstreamAuth>;
  /** API tokens and OAuth clients as an operator UI (the console) lists, mints and revokes them; the plugin that issues them provides it. */
  readonly accessAdmin: ProvidedService<AccessAdmin>;
  /** How a program calls a tool (code-mode provides it), for a meta-tool that hands out the declarations of tools it found (tool-search). */
  readonly toolDeclarations: ProvidedService<ToolDeclarations>;
  readonly servers: Servers;
  /** The callers' limits, for calls a plugin makes on a caller's behalf. */
  readonly clientLimits: ClientCallLimits;
  /** The operator web service: every page a person uses logs in, keeps a session and checks forms through it. */
  readonly operator: OperatorService;
  /** This hub's events (metrics, traces, audit), and the ones a plugin publishes. */
  readonly observe: HubTopics;
  /** The config file: read, checked as a reload checks it, written atomically over the version read (the operator console). */
  readonly configFile: ConfigFile;
  /** Re-reads the config file and applies it (what SIGHUP does); false when it was refused or there is no file. */
  reloadConfig(trigger: string): Promise<boolean>;
  /**
   * Work to finish once the server listens (`settings.baseUrl` is then where it serves,
   * PORT=0 included) and before the hub answers its first request: the hub's routes hold
   * requests until every plugin's is done, and the standalone hub's start resolves, and logs
   * `Server listening`, only then. Run in the order added, each after the last; one that
   * fails is logged and the hub answers 503 (the standalone hub stops). Add it in `register`
   * (or an app's `setup`); `hub-admin`, which builds the hub without listening, never runs
   * it. Not Fastify's `onListen`: Fastify runs those once it already takes requests, and does
   * not wait for an async one.
   */
  beforeServing(work: () => void | Promise<void>): void;
}

function viewOf(child: Child): ServerView {
  return child.view;
}

function registryFor<T>(registry: Registry<T>, owner: string, isolate: (value: T) => T = (value) => value): PluginRegistry<T> {
  return {
    add: (name, value) => registry.add(name, value && isolate(value), owner),
    get: (name) => registry.get(name),
    has: (name) => registry.has(name),
    names: () => registry.names(),
    values: () => registry.values(),
  };
}

function serviceFor<T>(slot: Slot<T>, owner: string, isolate: (value: T) => T = (value) => value): ProvidedService<T> {
  return {
    provide: (value) => slot.fill(isolate(value), owner),
    get current() {
      return slot.value;
    },
  };
}

/** The hub as `owner` (a plugin's name, or the embedding app's) sees it. */
export function pluginHub(hub: Hub, owner: string): PluginHub {
  const isolate: Isolate = (site, fn, fallback) => hub.faults.guard(owner, site, fn, fallback);
  const servers: Servers = {
    get: (name) => {
      const child = hub.children.get(name);
      return child && viewOf(child);
    },
    list: () => hub.children.all().map(viewOf),
    observe: (observer) => {
      const transition = observer.transition && isolate('servers.observe.transition', observer.transition.bind(observer), () => undefined);
      const start = observer.start && isolate('servers.observe.start', observer.start.bind(observer), () => undefined);
      const toolsChanged = observer.toolsChanged && isolate('servers.observe.toolsChanged', observer.toolsChanged.bind(observer), () => undefined);
      return hub.children.observe({
        ...(transition && { transition: (child, event) => transition(viewOf(child), event) }),
        ...(start && { start: (child, event) => start(viewOf(child), event) }),
        ...(toolsChanged && { toolsChanged: (child) => toolsChanged(viewOf(child)) }),
      });
    },
    onRemoved: (listener) => hub.children.onRemoved(isolate('servers.onRemoved', listener, () => undefined)),
    addInProcess: (name, factory, entry) => {
      const child = hub.children.addInProcess(name, factory, entry);
      hub.pluginServers.set(name, owner);
      return viewOf(child);
    },
    // Not async where the answer on hiding is at hand (the commonest call): the pipeline's promise, its "no such tool" said once it answers.
    callTool: (server, params, context) => {
      try {
        // The view is the child's own for its life: the configured child of that name, if it is still this one.
        const name = typeof server === 'string' ? server : server.name;
        const child = hub.children.get(name);
        if (!child || (typeof server !== 'string' && child.view !== server)) return Promise.resolve(unknownServer(name, params.name));
        const { revision, request: caller, sessionCapabilities, via, hubCall } = context;
        const run = (): Promise<ServerToolAnswer> =>
          runToolCall(hub, toolCallOf({ revision, caller, server: child, road: 'hub', params, sessionCapabilities, via, hubCall })).then((answer) => answer ?? unknownTool(name, params.name));
        // As on the server's own endpoint: a tool the caller's revision is not shown is unknown to it.
        const hidden = child.isToolAllowed(params.name) && child.hidesTool(revision.revision, params.name, () => AbortSignal.timeout(child.startTimeoutMs));
        if (hidden === false) return run();
        if (hidden === true) return Promise.resolve(unknownTool(name, params.name));
        return hidden.then((isHidden) => (isHidden ? unknownTool(name, params.name) : run()));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  const observe = topicsOf(hub.identity, isolate);
  return {
    plugin: owner,
    version: hub.version,
    get loadedPlugins() {
      return [...hub.loadedPlugins];
    },
    settings: hub.settings,
    config: hub.config,
    env: hub.env,
    configDirectory: hub.configDirectory,
    log: hub.log,
    store: hub.store,
    childTypes: registryFor(hub.childTypes, owner, (type) => isolatedChildType(type, isolate)),
    revisions: registryFor(hub.revisions, owner),
    metaTools: registryFor(hub.metaTools, owner),
    adminCommands: registryFor(hub.adminCommands, owner),
    pages: registryFor(hub.pages, owner),
    toolGates: registryFor(hub.toolGates, owner, (gate) => isolatedToolGate(gate, owner, hub, isolate)),
    interceptors: registryFor(hub.interceptors, owner),
    authenticator: serviceFor(hub.authenticator, owner),
    upstreamAuth: serviceFor(hub.upstreamAuth, owner),
    accessAdmin: serviceFor(hub.accessAdmin, owner),
    // A declaration that throws is left out (undefined) of what the meta-tool asking hands out; the fault is the provider's.
    toolDeclarations: serviceFor(hub.toolDeclarations, owner, (provided) => ({ declare: isolate('toolDeclarations.declare', provided.declare.bind(provided), () => undefined) })),
    servers,
    clientLimits: {
      admit: async (client) => {
        const admitted = await hub.clientLimits.admit(client);
        if (typeof admitted !== 'function' && hubObserve.rateLimited.active) hubObserve.rateLimited.publish({ hub: hub.identity });
        return admitted;
      },
    },
    get operator() {
      return hub.operator;
    },
    observe,
    get configFile() {
      return hub.configFile;
    },
    reloadConfig: (trigger) => hub.reloadConfig(trigger),
    beforeServing: (work) => hub.listenWork.add(owner, work),
  };
}

/**
 * A gate whose `withheld` (or `instructions`) throws withholds the tool (or the instructions) (pinning guards against changed tools:
 * failing open would let one through), saying so; `review` and `refresh` failures leave
 * what the gate knew. Each failure is counted under the plugin's name.
 */
function isolatedToolGate(gate: ToolGate, owner: string, hub: Hub, isolate: Isolate): ToolGate {
  return {
    withheld: isolate('toolGates.withheld', gate.withheld.bind(gate), () => `The tool is withheld: the tool gate of plugin "${owner}" failed; an operator can see why in the hub's log.`),
    ...(gate.review && { review: isolate('toolGates.review', gate.review.bind(gate), () => undefined) }),
    ...(gate.instructions && {
      instructions: isolate('toolGates.instructions', gate.instructions.bind(gate), () => ({
        reason: `The instructions are withheld: the tool gate of plugin "${owner}" failed; an operator can see why in the hub's log.`,
      })),
    }),
    ...(gate.reviewInstructions && { reviewInstructions: isolate('toolGates.reviewInstructions', gate.reviewInstructions.bind(gate), () => undefined) }),
    ...(gate.refresh && {
      refresh: async (server: ServerView) => {
        try {
          await gate.refresh?.(server);
        } catch (error) {
          hub.faults.record(owner, 'toolGates.refresh', error);
        }
      },
    }),
  };
}

/**
 * `alwaysRunning` is asked while servers are added: a throw there must not stop the others;
 * taken as false (started on demand). `problem` is asked by every listing: a throw says nothing.
 */
function isolatedChildType(type: ChildType, isolate: Isolate): ChildType {
  return Object.assign(Object.create(type) as ChildType, {
    alwaysRunning: isolate('childTypes.alwaysRunning', type.alwaysRunning.bind(type), () => false),
    ...(type.problem && { problem: isolate('childTypes.problem', type.problem.bind(type), () => undefined) }),
  });
}
