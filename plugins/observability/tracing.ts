import { AsyncLocalStorage } from 'node:async_hooks';
import { type Attributes, type Context, defaultTextMapGetter, defaultTextMapSetter, type Link, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { HUB_VERSION, type PluginHub } from '../../core/plugin/index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import type { ChildStartEvent, ChildTransition, HubToolCallEvent, McpRequestEvent, ToolCallEvent } from '../../core/plugin/observe.js';
import { isPlainObject } from '../../core/plugin/revision.js';
import type { TraceIds } from './call-log.js';
import { errorType } from './error-type.js';
import { ExportFailureLog, flushBudget, settleWithin } from './export-guard.js';
import { createExporter, WatchedExporter } from './exporter.js';
import type { TracesTarget } from './traces-url.js';
import { transportOf } from './transport.js';

/** Methods whose `params.uri` is the resource (`mcp.resource.uri`). */
const RESOURCE_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);
/** Attribute values a caller sends are cut here: an attribute is for reading, not for storing a payload. */
const MAX_ATTRIBUTE_CHARS = 1024;

/** The spans of one tool call: the hub's server span it belongs to and the client span toward the child. */
interface CallSpans {
  server: Span;
  /** The call made its own server span (`hub-stdio`: no HTTP request around it), which it ends. */
  own: boolean;
  client: Span | undefined;
}

export interface Tracing {
  /** The trace and the hub's span of a tool call, for the call log. */
  idsOf(event: ToolCallEvent | HubToolCallEvent): TraceIds | undefined;
  /** Flushes what is left within `flushBudget` (none when the collector is out of reach), never failing. */
  stop(): Promise<void>;
}

/**
 * OpenTelemetry traces of the hub, after OpenTelemetry's semantic conventions for MCP:
 *
 * - every MCP message a client sends (`/hub`, `/<name>/mcp`) is a SERVER span
 *   `{mcp.method.name} {target}` (the tool of a `tools/call` when it is one the hub knows)
 *   continuing the trace of the request's `_meta`, else of its `traceparent` header (which
 *   is linked when both are there and differ); a 2025 client's GET, which carries no
 *   message, makes none;
 * - a tool call sent to a child is a CLIENT span `tools/call {tool}` under it, whose
 *   context the child gets in the forwarded `_meta`;
 * - a server that starts while a request waits for it is a `wake {server}` span under
 *   that request (`start {server}` when it was not asleep), with the start itself (the
 *   kernel's connect, handshake and tool listing) as its child span;
 * - over `hub-stdio`, where there is no HTTP request, the tool call is its own SERVER span.
 *
 * The provider is the hub's own (never registered globally, so an embedding app's tracing
 * is left alone); spans go out in batches over the target's OTLP protocol, and the rest is
 * flushed when the hub closes, for at most `flushBudget` (none once an export failed). A
 * collector out of reach is logged once, then rarely (`ExportFailureLog`), and never
 * fails or holds a shutdown.
 */
export async function startTracing(hub: PluginHub, target: TracesTarget): Promise<Tracing> {
  const env = hub.env;
  const log = hub.log.child({ plugin: 'observability' });
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const failures = new ExportFailureLog(log, target.url);
  const exporter = new WatchedExporter(await createExporter(target), failures);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || 'mcp-switchyard', 'service.version': HUB_VERSION }),
    spanProcessors: [new BatchSpanProcessor(exporter, { ...(Number.isFinite(delay) && delay > 0 && { scheduledDelayMillis: delay }) })],
  });
  const tracer = provider.getTracer('mcp-switchyard', HUB_VERSION);
  const propagator = new W3CTraceContextPropagator();
  const extracted = (carrier: unknown): Context | undefined => {
    if (!isPlainObject(carrier) || typeof carrier.traceparent !== 'string') return undefined;
    const context = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
    return trace.getSpanContext(context) ? context : undefined;
  };
  const under = (span: Span | undefined): Context => (span ? trace.setSpan(ROOT_CONTEXT, span) : ROOT_CONTEXT);

  const requests = new WeakMap<McpRequestEvent, Span>();
  const currentRequest = new AsyncLocalStorage<Span | undefined>();
  const calls = new WeakMap<ToolCallEvent, CallSpans>();
  /** The server span of the latest call of each server, for a wake with no request around it (`hub-stdio`). */
  const latestCall = new Map<string, Span>();
  const wakes = new Map<string, { span: Span; open: boolean }>();

  const requestSpan = (event: McpRequestEvent): Span | undefined => {
    const body = event.body;
    if (!isPlainObject(body) || typeof body.method !== 'string') return undefined;
    const method = body.method;
    const params = isPlainObject(body.params) ? body.params : {};
    const fromMeta = extracted(params._meta);
    const fromHeader = extracted(event.http.headers);
    const headerSpan = fromHeader && trace.getSpanContext(fromHeader);
    const links: Link[] = fromMeta && headerSpan && headerSpan.spanId !== trace.getSpanContext(fromMeta)?.spanId ? [{ context: headerSpan }] : [];
    const tool = method === 'tools/call' && typeof params.name === 'string' ? params.name : undefined;
    const target = tool !== undefined && knownTool(hub, event.endpoint, tool) ? ` ${tool}` : '';
    const sessionId = event.http.headers['mcp-session-id'];
    const attributes: Attributes = {
      'mcp.method.name': method,
      ...(event.revision !== undefined && { 'mcp.protocol.version': bounded(event.revision) }),
      ...(typeof sessionId === 'string' && { 'mcp.session.id': bounded(sessionId) }),
      ...((typeof body.id === 'string' || typeof body.id === 'number') && { 'jsonrpc.request.id': bounded(String(body.id)) }),
      ...(RESOURCE_METHODS.has(method) && typeof params.uri === 'string' && { 'mcp.resource.uri': bounded(params.uri) }),
      ...(tool !== undefined && { 'gen_ai.tool.name': bounded(tool), 'gen_ai.operation.name': 'execute_tool' }),
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': event.http.httpVersion,
      ...(event.http.socket.remoteAddress !== undefined && { 'client.address': event.http.socket.remoteAddress }),
      ...(event.http.socket.remotePort !== undefined && { 'client.port': event.http.socket.remotePort }),
      'mcp_switchyard.endpoint': event.endpoint,
      ...(event.clientId !== undefined && { 'mcp_switchyard.client_id': event.clientId }),
    };
    const span = tracer.startSpan(`${method}${target}`, { kind: SpanKind.SERVER, attributes, links }, fromMeta ?? fromHeader ?? ROOT_CONTEXT);
    requests.set(event, span);
    // The access record names the trace this request's spans are in.
    if (event.access) event.access.traceId = span.spanContext().traceId;
    return span;
  };

  const failed = (span: Span, type: string, message?: string): void => {
    span.setAttribute('error.type', type);
    span.setStatus({ code: SpanStatusCode.ERROR, ...(message !== undefined && { message }) });
  };

  const wakeStarted = (child: ServerView, { from }: ChildTransition): void => {
    const parent = currentRequest.getStore() ?? latestCall.get(child.name);
    const span = tracer.startSpan(`${from === 'sleeping' ? 'wake' : 'start'} ${child.name}`, { attributes: { 'mcp_switchyard.server': child.name, 'mcp_switchyard.status': from } }, under(parent));
    wakes.set(child.name, { span, open: true });
  };
  const wakeChanged = (child: ServerView, transition: ChildTransition): void => {
    if (transition.to === 'starting' && transition.from !== 'starting') return wakeStarted(child, transition);
    const wake = wakes.get(child.name);
    if (!wake?.open) return;
    // A failed attempt within one wake: the wake goes on.
    if (transition.to === 'starting') {
      wake.span.addEvent('start attempt failed', { 'mcp_switchyard.reason': bounded(transition.reason ?? '') });
      return;
    }
    wake.open = false;
    if (transition.to !== 'up') failed(wake.span, 'start_failed', transition.reason);
    wake.span.setAttribute('mcp_switchyard.status', transition.to);
    wake.span.end();
  };
  const startReported = (child: ServerView, event: ChildStartEvent): void => {
    const wake = wakes.get(child.name);
    const start = tracer.startSpan(
      `start ${child.name}`,
      {
        startTime: Date.now() - event.durationMs,
        attributes: { 'mcp_switchyard.server': child.name, 'mcp_switchyard.start.outcome': event.outcome, 'network.transport': transportOf(child).transport },
      },
      under(wake?.span),
    );
    if (event.outcome === 'failed') failed(start, 'start_failed', child.lastError);
    start.end();
  };

  const unsubscribe = [
    hub.observe.mcpRequest.bindStore(currentRequest, requestSpan),
    hub.observe.mcpRequestEnd.subscribe((event) => {
      const span = requests.get(event);
      if (!span) return;
      const status = event.status ?? 0;
      span.setAttribute('http.response.status_code', status);
      if (status >= 400) failed(span, String(status), `HTTP ${status}`);
      span.end();
    }),
    hub.servers.observe({ transition: wakeChanged, start: startReported }),
    hub.observe.toolCallStart.subscribe((event) => {
      const request = currentRequest.getStore();
      const server = event.child.name;
      const own = request === undefined;
      const span =
        request ??
        tracer.startSpan(
          `tools/call${event.child.findTool(event.tool) ? ` ${event.tool}` : ''}`,
          {
            kind: SpanKind.SERVER,
            attributes: {
              'mcp.method.name': 'tools/call',
              'mcp.protocol.version': event.revision,
              'gen_ai.tool.name': bounded(event.tool),
              'gen_ai.operation.name': 'execute_tool',
              'network.transport': 'pipe',
              'mcp_switchyard.server': server,
              ...(event.clientId !== undefined && { 'mcp_switchyard.client_id': event.clientId }),
            },
          },
          extracted(event.params._meta ?? event.request.meta) ?? ROOT_CONTEXT,
        );
      calls.set(event, { server: span, own, client: undefined });
      latestCall.set(server, span);
    }),
    hub.observe.toolCallSent.subscribe((event) => {
      const spans = calls.get(event);
      if (!spans) return;
      const { transport, address, port } = transportOf(event.child);
      spans.client = tracer.startSpan(
        `tools/call ${event.tool}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'mcp.method.name': 'tools/call',
            ...(event.child.revision !== undefined && { 'mcp.protocol.version': event.child.revision }),
            'gen_ai.tool.name': event.tool,
            'gen_ai.operation.name': 'execute_tool',
            'network.transport': transport,
            ...(address !== undefined && { 'server.address': address }),
            ...(port !== undefined && { 'server.port': port }),
            'mcp_switchyard.server': event.child.name,
            // A virtual server's call, routed to the underlying server: the span names both.
            ...(event.virtual && { 'mcp_switchyard.virtual_server': event.virtual.server.name, 'mcp_switchyard.virtual_tool': event.virtual.tool }),
          },
        },
        under(spans.server),
      );
      propagator.inject(under(spans.client), event.forwardMeta, defaultTextMapSetter);
    }),
    hub.observe.toolCallEnd.subscribe((event) => {
      const spans = calls.get(event);
      if (!spans) return;
      const outcome = event.outcome ?? 'ok';
      const type = errorType(outcome, event.errorCode);
      const code = typeof event.errorCode === 'number' ? String(event.errorCode) : undefined;
      for (const span of spans.client ? [spans.client, spans.server] : [spans.server]) {
        span.setAttribute('mcp_switchyard.outcome', outcome);
        if (code !== undefined) span.setAttribute('rpc.response.status_code', code);
        if (type !== undefined) failed(span, type, outcome);
      }
      spans.client?.end();
      if (spans.own) spans.server.end();
      if (latestCall.get(event.child.name) === spans.server) latestCall.delete(event.child.name);
    }),
  ];
  // A server a reload took out has no wake to finish.
  unsubscribe.push(hub.servers.onRemoved((name) => wakes.delete(name)));

  return {
    idsOf: (event) => {
      // A call of /hub's own tool is heard within its request.
      const span = 'child' in event ? calls.get(event)?.server : currentRequest.getStore();
      if (!span) return undefined;
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },
    stop: async () => {
      unsubscribe.forEach((stop) => stop());
      const budget = flushBudget(failures.failing);
      const flushed = await settleWithin(provider.shutdown(), budget);
      if (flushed.result !== 'late') return;
      if (budget === 0) log.warn({ collector: target.url }, 'tracing: the collector is out of reach; shutting down without the last spans');
      else log.warn({ collector: target.url }, `tracing: the collector did not take the last spans within ${budget / 1000} s; shutting down without them`);
    },
  };
}

/** Whether a `tools/call`'s tool is one the hub knows (a meta-tool, or a tool the server lists): only such a name goes into a span name. */
function knownTool(hub: PluginHub, endpoint: string, tool: string): boolean {
  return endpoint === 'hub' ? hub.metaTools.has(tool) : hub.servers.get(endpoint)?.findTool(tool) !== undefined;
}

function bounded(text: string): string {
  return text.length > MAX_ATTRIBUTE_CHARS ? `${text.slice(0, MAX_ATTRIBUTE_CHARS)}…` : text;
}
