import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CellCounter, CellHistogram } from './series-cells.js';
import type { PluginHub, ServerView, ToolRoute } from '../../core/plugin/index.js';
import { CHILD_STATUSES, type ConfigReloadEvent, type InterceptionEvent, type HubToolCallEvent, type McpRequestEvent, type ToolCallEvent } from '../../core/plugin/observe.js';
import type { LifecycleListener, StartReason } from './lifecycle.js';
import { errorType } from './error-type.js';
import { ToolLabelSets, UNLISTED_TOOL, type ToolLabels } from './tool-labels.js';
import { transportOf } from './transport.js';

/**
 * MCP methods counted by name; anything else a client sends is `other`, so a label value
 * never comes from a client.
 */
const METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
]);

/**
 * Buckets of every duration histogram, in seconds: from 100 µs (the hub's own carriage is
 * below a millisecond) to 120 s (a slow tool within the default call timeout).
 */
export const DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * prom-client's default gauges that end in `_total`, which the Prometheus naming rules
 * (and `promtool check metrics`) keep for counters; their per-type siblings
 * (`nodejs_active_handles` by `type`, ...) say the same and stay.
 */
const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** The `server` label of `/hub`'s own tools: `hub` is reserved, no configured server has that name. */
export const HUB_SERVER = 'hub';

const START_REASONS: readonly StartReason[] = ['start', 'wake', 'restart'];

/** The method of a JSON-RPC body as a label value. */
export function methodLabel(body: unknown): string {
  if (Array.isArray(body)) return 'batch';
  const method = (body as { method?: unknown } | null | undefined)?.method;
  return typeof method === 'string' && METHODS.has(method) ? method : 'other';
}

/**
 * The hub's Prometheus metrics, in a registry of its own (an embedding app keeps its
 * default one). The status page reads its figures from here too, so what it shows is
 * what Prometheus scrapes, and it survives a reload.
 */
export class HubMetrics implements LifecycleListener {
  readonly registry = new Registry();
  readonly toolCalls = new CellCounter({
    name: 'hub_tool_calls_total',
    help: 'Tool calls for configured servers, by server, tool (unlisted names as "(unlisted)") and outcome (ok, tool_error, protocol_error, timeout, unavailable, drained, unknown_tool, denied, refused); a call through a virtual server is the underlying server\'s and tool\'s, with virtual_server naming the virtual one (absent on other calls).',
    labelNames: ['server', 'tool', 'outcome', 'virtual_server'],
    registers: [this.registry],
  });
  readonly toolDuration = new CellHistogram({
    name: 'hub_tool_call_duration_seconds',
    help: 'Duration of tool calls for configured servers, waking included, by server, tool, outcome and virtual_server (as hub_tool_calls_total).',
    labelNames: ['server', 'tool', 'outcome', 'virtual_server'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly #mcpRequests = new CellCounter({
    name: 'hub_mcp_requests_total',
    help: 'Requests on the MCP endpoints once answered, by endpoint (hub or a server), method, revision and HTTP status.',
    labelNames: ['endpoint', 'method', 'revision', 'status'],
    registers: [this.registry],
  });
  readonly #serverOperations = new CellHistogram({
    name: 'mcp_server_operation_duration_seconds',
    help: 'OpenTelemetry mcp.server.operation.duration: MCP requests and notifications the hub served, from receipt to answer.',
    labelNames: ['mcp_method_name', 'mcp_protocol_version', 'gen_ai_tool_name', 'error_type'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly #clientOperations = new CellHistogram({
    name: 'mcp_client_operation_duration_seconds',
    help: 'OpenTelemetry mcp.client.operation.duration: tool calls the hub sent to servers, from sending to their answer; server is the configured server.',
    labelNames: ['server', 'mcp_method_name', 'mcp_protocol_version', 'gen_ai_tool_name', 'error_type', 'network_transport'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly #endpointRequests = new CellHistogram({
    name: 'hub_mcp_request_duration_seconds',
    help: 'MCP requests other than tools/call (whose durations hub_tool_call_duration_seconds has by tool), by endpoint and method, from receipt to answer.',
    labelNames: ['endpoint', 'method'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  /** Tool calls for configured servers started and not yet ended: a number on the hot path, a gauge only when scraped. */
  #callsInFlight = 0;
  readonly #httpRequests = new CellCounter({
    name: 'hub_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status.',
    labelNames: ['route', 'status'],
    registers: [this.registry],
  });
  readonly #starts = new Counter({ name: 'hub_child_starts_total', help: 'Server starts, by reason (start, wake, restart).', labelNames: ['server', 'reason'], registers: [this.registry] });
  readonly #startFailures = new Counter({
    name: 'hub_child_start_failures_total',
    help: 'Server starts that failed (the server could not be started or woken).',
    labelNames: ['server'],
    registers: [this.registry],
  });
  readonly #wake = new Histogram({
    name: 'hub_child_wake_seconds',
    help: 'Time from a server starting to it being up with its tool list.',
    labelNames: ['server'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly restarts = new Counter({
    name: 'hub_child_restarts_total',
    help: 'Starts of servers that had been up before (after a crash, a stop, an operator restart).',
    labelNames: ['server'],
    registers: [this.registry],
  });
  readonly crashes = new Counter({ name: 'hub_child_crashes_total', help: 'Servers that were up and ended without being asked to.', labelNames: ['server'], registers: [this.registry] });
  readonly #authFailures = new Counter({ name: 'hub_auth_failures_total', help: 'Refused credentials, by reason.', labelNames: ['reason'], registers: [this.registry] });
  readonly #rotations = new Counter({ name: 'hub_token_rotations_total', help: 'Refresh token rotations answered by the authorization server.', registers: [this.registry] });
  readonly #pluginFailures = new Counter({
    name: 'hub_plugin_failures_total',
    help: "Throws of a plugin's observer, hook or callback the hub isolated and went on, by plugin and site.",
    labelNames: ['plugin', 'site'],
    registers: [this.registry],
  });
  readonly #unhandledRejections = new Counter({
    name: 'hub_unhandled_rejections_total',
    help: 'Promises rejected with nobody to handle them, which the hub logged and went on (the hub and hub-stdio CLIs).',
    registers: [this.registry],
  });
  readonly #rateLimited = new Counter({ name: 'hub_rate_limited_total', help: 'MCP requests refused by a per-client limit.', registers: [this.registry] });
  readonly #reloadFailures = new Counter({
    name: 'hub_config_reload_failures_total',
    help: 'Config reloads refused (the file did not validate; the running config stayed).',
    registers: [this.registry],
  });
  readonly #reloadSuccess = new Gauge({
    name: 'hub_config_reload_last_success_timestamp_seconds',
    help: 'When the config was last loaded or reloaded successfully (seconds since the epoch); the start counts.',
    registers: [this.registry],
  });
  readonly #lastReloadOk = new Gauge({ name: 'hub_config_last_reload_successful', help: 'Whether the last config reload was applied (1) or refused (0).', registers: [this.registry] });
  readonly #labels = new ToolLabelSets();
  readonly #toolsWithheld = new Counter({
    name: 'hub_tools_withheld_total',
    help: 'Tool definitions a tool gate began to withhold until an operator approves them, by cause (changed, new).',
    labelNames: ['server', 'cause'],
    registers: [this.registry],
  });
  readonly #interceptions = new Counter({
    name: 'hub_interceptions_total',
    help: 'What tool-call interceptors did (refused, replaced, seen, failed), by interceptor, direction (arguments, result, error, notification) and action.',
    labelNames: ['interceptor', 'direction', 'action'],
    registers: [this.registry],
  });
  readonly #interceptorFindings = new Counter({
    name: 'hub_interceptor_findings_total',
    help: 'Findings tool-call interceptors reported (a secret redacted or blocked by kind, an output cut), by interceptor, kind and direction; never what was found.',
    labelNames: ['interceptor', 'kind', 'direction'],
    registers: [this.registry],
  });
  readonly #interceptorFailures = new Counter({
    name: 'hub_interceptor_failures_total',
    help: 'Tool-call interceptors that threw or ran past their time budget (the call failed closed), by interceptor and failure (threw, overran).',
    labelNames: ['interceptor', 'failure'],
    registers: [this.registry],
  });
  readonly #hub: PluginHub;
  /** The revision label's values: the revisions registered, read once every plugin has registered. */
  #revisions: Set<string> | undefined;

  constructor(hub: PluginHub, now = Date.now(), server?: { getConnections(callback: (error: Error | null, count: number) => void): void }) {
    this.#hub = hub;
    const revisions = (): string => [...this.#knownRevisions()].sort().join(',');
    new Gauge({
      name: 'hub_build_info',
      help: "The hub's version, the Node.js line it runs on and the MCP revisions it serves, comma-separated (always 1).",
      labelNames: ['version', 'node_version', 'revisions'],
      registers: [this.registry],
      // Read at the scrape: the revisions are known once every plugin has registered.
      collect() {
        this.reset();
        this.set({ version: hub.version, node_version: process.version, revisions: revisions() }, 1);
      },
    });
    const inFlight = (): number => this.#callsInFlight;
    new Gauge({
      name: 'hub_tool_calls_in_flight',
      help: 'Tool calls for configured servers that have started and not yet ended.',
      registers: [this.registry],
      collect() {
        this.set(inFlight());
      },
    });
    if (server) {
      new Gauge({
        name: 'hub_open_connections',
        help: 'HTTP connections open on the server the hub listens on (keep-alive and event streams included).',
        registers: [this.registry],
        async collect() {
          this.set(await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count))));
        },
      });
    }
    new Gauge({
      name: 'hub_child_status',
      help: 'The status of each server: 1 for its current status, 0 for the others.',
      labelNames: ['server', 'status'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const child of hub.servers.list()) for (const status of CHILD_STATUSES) this.set({ server: child.name, status }, child.status === status ? 1 : 0);
      },
    });
    this.#reloadSuccess.set(now / 1000);
    this.#lastReloadOk.set(1);
    new Gauge({
      name: 'hub_tools_withheld',
      help: 'Tools withheld from callers now (tool pinning: awaiting an operator approval), by server.',
      labelNames: ['server'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const child of hub.servers.list()) this.set({ server: child.name }, child.withheldTools.length);
      },
    });
    collectDefaultMetrics({ register: this.registry });
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
  }

  /**
   * The labels of a call: its server, the tool (if listed or denied by name) and the
   * outcome; for a call routed through a virtual server, the underlying server and tool,
   * and the virtual server.
   */
  labelsOf(event: ToolCallEvent): ToolLabels {
    const server = event.child;
    return this.#labels.of(
      server.name,
      event.tool,
      event.outcome ?? 'ok',
      (tool) => server.findTool(tool) !== undefined || server.entry.denyTools?.includes(tool) === true || server.withheldTools.some((withheld) => withheld.name === tool),
      event.virtual?.server.name,
    );
  }

  /** A call of one of `/hub`'s own tools, counted under the server `hub` (a name no server may take). */
  hubToolCall(event: HubToolCallEvent): ToolLabels {
    const labels = this.#labels.of(HUB_SERVER, event.tool, event.outcome, (tool) => this.#hub.metaTools.has(tool));
    this.toolCalls.inc(labels);
    this.toolDuration.observe(labels, (event.endedAt - event.startedAt) / 1000);
    return labels;
  }

  callStarted(): void {
    this.#callsInFlight += 1;
  }

  toolCall(event: ToolCallEvent, labels: ToolLabels): void {
    this.#callsInFlight -= 1;
    const ended = event.endedAt ?? event.startedAt;
    this.toolCalls.inc(labels);
    this.toolDuration.observe(labels, (ended - event.startedAt) / 1000);
    if (event.sentAt === undefined) return;
    const type = errorType(event.outcome ?? 'ok', event.errorCode);
    this.#clientOperations.observe(
      {
        server: event.child.name,
        mcp_method_name: 'tools/call',
        mcp_protocol_version: event.child.revision ?? 'unknown',
        gen_ai_tool_name: labels.tool,
        ...(type !== undefined && { error_type: type }),
        network_transport: transportOf(event.child).transport,
      },
      (ended - event.sentAt) / 1000,
    );
  }

  /** A request on an MCP endpoint, once answered. */
  mcpRequestEnd(event: McpRequestEvent, now: number): void {
    const method = methodLabel(event.body);
    const revision = event.revision !== undefined && this.#knownRevisions().has(event.revision) ? event.revision : 'unknown';
    const status = event.status ?? 0;
    this.#mcpRequests.inc({ endpoint: event.endpoint, method, revision, status: String(status) });
    // A 2025 client's GET (a stream it may open) carries no MCP message.
    if (method === 'other' && event.method !== 'POST') return;
    const tool = method === 'tools/call' ? this.#toolLabelOf(event) : undefined;
    const seconds = (now - event.startedAt) / 1000;
    if (tool === undefined) this.#endpointRequests.observe({ endpoint: event.endpoint, method }, seconds);
    this.#serverOperations.observe(
      {
        mcp_method_name: method,
        mcp_protocol_version: revision,
        ...(tool !== undefined && { gen_ai_tool_name: tool }),
        ...(status >= 400 && { error_type: String(status) }),
      },
      seconds,
    );
  }

  /** The tool a `tools/call` names, as a label: a meta-tool of `/hub`, a tool the server lists, else unlisted. */
  #toolLabelOf(event: McpRequestEvent): string {
    const name = (event.body as { params?: { name?: unknown } } | null)?.params?.name;
    if (typeof name !== 'string') return UNLISTED_TOOL;
    if (event.endpoint === 'hub') return this.#hub.metaTools.has(name) ? name : UNLISTED_TOOL;
    return this.#hub.servers.get(event.endpoint)?.findTool(name) ? name : UNLISTED_TOOL;
  }

  #knownRevisions(): Set<string> {
    return (this.#revisions ??= new Set(this.#hub.revisions.names()));
  }

  httpRequest(route: string | undefined, status: number): void {
    this.#httpRequests.inc({ route: route ?? 'unmatched', status: String(status) });
  }

  started(server: string, reason: StartReason): void {
    this.#starts.inc({ server, reason });
    if (reason === 'restart') this.restarts.inc({ server });
  }

  up(server: string, seconds: number): void {
    this.#wake.observe({ server }, seconds);
  }

  failed(server: string, _reason: string, kind: 'crash' | 'start'): void {
    if (kind === 'crash') this.crashes.inc({ server });
    else this.#startFailures.inc({ server });
  }

  authFailure(reason: string): void {
    this.#authFailures.inc({ reason });
  }

  tokenRotation(): void {
    this.#rotations.inc();
  }

  unhandledRejection(): void {
    this.#unhandledRejections.inc();
  }

  rateLimited(): void {
    this.#rateLimited.inc();
  }

  pluginFailure(plugin: string, site: string): void {
    this.#pluginFailures.inc({ plugin, site });
  }

  reloaded(event: ConfigReloadEvent, now: number): void {
    if (event.outcome === 'refused') {
      this.#reloadFailures.inc();
      this.#lastReloadOk.set(0);
      return;
    }
    this.#reloadSuccess.set(now / 1000);
    this.#lastReloadOk.set(1);
    this.sync();
  }

  /**
   * Brings the series in line with the configured servers: those of their listed tools,
   * denied names and crash counters exist at 0 before anything happens to them; those
   * of a server no longer configured go. Run before every scrape and after a reload.
   */
  sync(): void {
    const servers = this.#hub.servers.list();
    const listed = [
      ...servers.map((server) => ({ name: server.name, tools: server.tools.map((tool) => tool.name), denied: server.entry.denyTools ?? [], routes: this.#routesOf(server) })),
      { name: HUB_SERVER, tools: this.#hub.metaTools.names(), denied: [] },
    ];
    const removed = this.#labels.sync(listed, (labels) => {
      this.toolCalls.inc(labels, 0);
      if (labels.outcome === 'ok') this.toolDuration.zero(labels);
    });
    for (const labels of removed) {
      this.toolCalls.remove(labels);
      this.toolDuration.remove(labels);
    }
    const configured = new Set(servers.map((server) => server.name));
    for (const server of configured) {
      for (const counter of [this.restarts, this.crashes, this.#startFailures]) counter.inc({ server }, 0);
      for (const reason of START_REASONS) this.#starts.inc({ server, reason }, 0);
    }
    for (const server of new Set(removed.map((labels) => labels.server))) {
      if (configured.has(server)) continue;
      for (const counter of [this.restarts, this.crashes, this.#startFailures]) counter.remove({ server });
      for (const reason of START_REASONS) this.#starts.remove({ server, reason });
      this.#wake.remove({ server });
    }
  }

  /** Where a routing server's (a virtual server's) tools go, so that their series too exist at 0 before the first call. */
  #routesOf(server: ServerView): ToolRoute[] {
    const type = this.#hub.childTypes.get(server.entry.type ?? '');
    if (!type?.routeTool) return [];
    return server.tools.flatMap((tool) => type.routeTool?.(server.name, tool.name) ?? []);
  }

  toolWithheld(server: string, cause: string): void {
    this.#toolsWithheld.inc({ server, cause });
  }

  /** Label values only from the interceptor's registration and its declared kinds (the kernel drops others). */
  interception(event: InterceptionEvent): void {
    const { interceptor, direction, action } = event;
    this.#interceptions.inc({ interceptor, direction, action });
    for (const kind of event.findings) this.#interceptorFindings.inc({ interceptor, kind, direction });
    if (event.failure) this.#interceptorFailures.inc({ interceptor, failure: event.failure });
  }
}
