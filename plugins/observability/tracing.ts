import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { HUB_VERSION, type PluginHub } from '../../core/plugin/index.js';
import type { McpRequestEvent, ToolCallEvent } from '../../core/plugin/observe.js';
import { isPlainObject } from '../../core/plugin/revision.js';

/** The spans of one tool call: the call on the hub, the wake of a sleeping server, the request to the child. */
interface CallSpans {
  call: Span;
  wake: Span | undefined;
  child: Span | undefined;
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs, comma-separated, URL-encoded. */
export function otlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

/**
 * OpenTelemetry traces of the hub's MCP requests. Every request on an MCP endpoint is a
 * server span that continues the caller's trace context from the request's `_meta`; a
 * tool call is a span under it, with a span for waking a sleeping server and a client span
 * for the request to the child, whose context the child gets in the forwarded `_meta`.
 * The provider is the hub's own (never registered globally, so an embedding app's
 * tracing is left alone); spans go out over OTLP/HTTP (JSON) in batches, and the rest is
 * flushed when the hub closes. Returns the shutdown.
 */
export function startTracing(hub: PluginHub, url: string): () => Promise<void> {
  const env = hub.env;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || 'mcp-switchyard', 'service.version': HUB_VERSION }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url, headers: { ...otlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...otlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) } }), {
        ...(Number.isFinite(delay) && delay > 0 && { scheduledDelayMillis: delay }),
      }),
    ],
  });
  const tracer = provider.getTracer('mcp-switchyard', HUB_VERSION);
  const propagator = new W3CTraceContextPropagator();
  const extract = (meta: unknown): Context => (isPlainObject(meta) ? propagator.extract(ROOT_CONTEXT, meta, defaultTextMapGetter) : ROOT_CONTEXT);

  const requests = new WeakMap<McpRequestEvent, Span>();
  const currentRequest = new AsyncLocalStorage<Span | undefined>();
  const calls = new WeakMap<ToolCallEvent, CallSpans>();

  const requestSpan = (event: McpRequestEvent): Span => {
    const body = event.body as { method?: unknown; params?: { _meta?: unknown; name?: unknown } } | null;
    const method = typeof body?.method === 'string' ? body.method : 'unknown';
    const span = tracer.startSpan(
      `${method} ${event.endpoint}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method': method,
          'mcp.server': event.endpoint,
          ...(event.revision !== undefined && { 'mcp.revision': event.revision }),
          ...(event.clientId !== undefined && { 'mcp.client_id': event.clientId }),
        },
      },
      extract(body?.params?._meta),
    );
    requests.set(event, span);
    // The access record names the trace this request's spans are in.
    if (event.access) event.access.traceId = span.spanContext().traceId;
    return span;
  };

  const unsubscribe = [
    hub.observe.mcpRequest.bindStore(currentRequest, requestSpan),
    hub.observe.mcpRequestEnd.subscribe((event) => {
      const span = requests.get(event);
      if (!span) return;
      const status = event.status ?? 0;
      span.setAttribute('http.response.status_code', status);
      if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${status}` });
      span.end();
    }),
    hub.observe.toolCallStart.subscribe((event) => {
      const request = currentRequest.getStore();
      const parent = request ? trace.setSpan(ROOT_CONTEXT, request) : extract(event.params._meta ?? event.request.meta);
      const server = event.child.name;
      const call = tracer.startSpan(
        `tools/call ${server}/${event.tool}`,
        { attributes: { 'mcp.method': 'tools/call', 'mcp.server': server, 'mcp.tool': event.tool, 'mcp.revision': event.revision, ...(event.clientId !== undefined && { 'mcp.client_id': event.clientId }) } },
        parent,
      );
      const wake = event.child.status === 'up' ? undefined : tracer.startSpan(`wake ${server}`, { attributes: { 'mcp.server': server, 'mcp.status': event.child.status } }, trace.setSpan(ROOT_CONTEXT, call));
      calls.set(event, { call, wake, child: undefined });
    }),
    hub.observe.toolCallSent.subscribe((event) => {
      const spans = calls.get(event);
      if (!spans) return;
      spans.wake?.end();
      spans.wake = undefined;
      const server = event.child.name;
      spans.child = tracer.startSpan(`tools/call ${event.tool}`, { kind: SpanKind.CLIENT, attributes: { 'mcp.server': server, 'mcp.tool': event.tool } }, trace.setSpan(ROOT_CONTEXT, spans.call));
      propagator.inject(trace.setSpan(ROOT_CONTEXT, spans.child), event.forwardMeta, defaultTextMapSetter);
    }),
    hub.observe.toolCallEnd.subscribe((event) => {
      const spans = calls.get(event);
      if (!spans) return;
      const outcome = event.outcome ?? 'ok';
      for (const span of [spans.wake, spans.child, spans.call]) {
        if (!span) continue;
        span.setAttribute('mcp.outcome', outcome);
        if (event.errorCode !== undefined) span.setAttribute('mcp.error_code', String(event.errorCode));
        if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
        span.end();
      }
      currentRequest.getStore()?.setAttribute('mcp.outcome', outcome);
    }),
  ];
  return async () => {
    unsubscribe.forEach((stop) => stop());
    await provider.shutdown();
  };
}
