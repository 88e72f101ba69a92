import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PluginHub } from '../../core/plugin/index.js';
import { CHILD_STATUSES, type ToolCallEvent } from '../../core/plugin/observe.js';
import type { LifecycleListener, StartReason } from './lifecycle.js';

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

/** The hub's Prometheus metrics, in a registry of its own (an embedding app keeps its default one). */
export class HubMetrics implements LifecycleListener {
  readonly registry = new Registry();
  readonly #toolCalls = new Counter({ name: 'hub_tool_calls_total', help: 'Tool calls carried to servers, by outcome (ok, tool_error, protocol_error, timeout, refused).', labelNames: ['server', 'tool', 'outcome'], registers: [this.registry] });
  readonly #toolDuration = new Histogram({
    name: 'hub_tool_call_duration_seconds',
    help: 'Duration of tool calls carried to servers, waking included.',
    labelNames: ['server'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly #mcpRequests = new Counter({ name: 'hub_mcp_requests_total', help: 'Requests on the MCP endpoints, by endpoint (hub or a server), method and revision.', labelNames: ['endpoint', 'method', 'revision'], registers: [this.registry] });
  readonly #httpRequests = new Counter({ name: 'hub_http_requests_total', help: 'HTTP requests answered, by route pattern and status.', labelNames: ['route', 'status'], registers: [this.registry] });
  readonly #starts = new Counter({ name: 'hub_child_starts_total', help: 'Server starts, by reason (start, wake, restart).', labelNames: ['server', 'reason'], registers: [this.registry] });
  readonly #wake = new Histogram({
    name: 'hub_child_wake_seconds',
    help: 'Time from a server starting to it being up with its tool list.',
    labelNames: ['server'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
    registers: [this.registry],
  });
  readonly #restarts = new Counter({ name: 'hub_child_restarts_total', help: 'Restarts of servers that had been up and went down.', labelNames: ['server'], registers: [this.registry] });
  readonly #authFailures = new Counter({ name: 'hub_auth_failures_total', help: 'Refused credentials, by reason.', labelNames: ['reason'], registers: [this.registry] });
  readonly #rotations = new Counter({ name: 'hub_token_rotations_total', help: 'Refresh token rotations answered by the authorization server.', registers: [this.registry] });
  readonly #rateLimited = new Counter({ name: 'hub_rate_limited_total', help: 'MCP requests refused by a per-client limit.', registers: [this.registry] });
  readonly #toolsWithheld = new Counter({
    name: 'hub_tools_withheld_total',
    help: 'Tool definitions a tool gate began to withhold until an operator approves them, by cause (changed, new).',
    labelNames: ['server', 'cause'],
    registers: [this.registry],
  });
  readonly #hub: PluginHub;
  /** The revision label's values: the revisions registered, read once every plugin has registered. */
  #revisions: Set<string> | undefined;

  constructor(hub: PluginHub) {
    this.#hub = hub;
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
  }

  toolCall(event: ToolCallEvent): void {
    const server = event.child.name;
    this.#toolCalls.inc({ server, tool: event.tool, outcome: event.outcome ?? 'ok' });
    this.#toolDuration.observe({ server }, ((event.endedAt ?? event.startedAt) - event.startedAt) / 1000);
  }

  mcpRequest(endpoint: string, body: unknown, revision: string | undefined): void {
    const method = (body as { method?: unknown } | null)?.method;
    this.#mcpRequests.inc({
      endpoint,
      method: Array.isArray(body) ? 'batch' : typeof method === 'string' && METHODS.has(method) ? method : 'other',
      revision: revision !== undefined && this.#knownRevisions().has(revision) ? revision : 'unknown',
    });
  }

  #knownRevisions(): Set<string> {
    return (this.#revisions ??= new Set(this.#hub.revisions.names()));
  }

  httpRequest(route: string | undefined, status: number): void {
    this.#httpRequests.inc({ route: route ?? 'unmatched', status: String(status) });
  }

  started(server: string, reason: StartReason): void {
    this.#starts.inc({ server, reason });
    if (reason === 'restart') this.#restarts.inc({ server });
  }

  up(server: string, seconds: number): void {
    this.#wake.observe({ server }, seconds);
  }

  authFailure(reason: string): void {
    this.#authFailures.inc({ reason });
  }

  tokenRotation(): void {
    this.#rotations.inc();
  }

  rateLimited(): void {
    this.#rateLimited.inc();
  }

  toolWithheld(server: string, cause: string): void {
    this.#toolsWithheld.inc({ server, cause });
  }
}
