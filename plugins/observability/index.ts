import { definePlugin } from '../../core/plugin/index.js';
import { createCallLog } from './call-log.js';
import { Lifecycle } from './lifecycle.js';
import { HubMetrics } from './metrics.js';
import { registerMetricsRoute } from './metrics-route.js';
import { ObservabilityOptions } from './options.js';
import { RecentCalls } from './recent.js';
import { registerStatusPage } from './status-page.js';
import { startTracing, tracesUrl } from './tracing.js';

/**
 * Metrics, traces, the call log and the status page, all fed by what the kernel publishes
 * (`hub.observe`); with this plugin off nothing listens and the kernel builds no event.
 */
export default definePlugin({
  name: 'observability',
  description: 'Prometheus /metrics, OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT) through _meta, a call log and the /status page.',
  enabledByDefault: true,
  reservedPaths: ['metrics', 'status'],
  options: ObservabilityOptions,
  async register(app, options, hub) {
    const unsubscribe: Array<() => void> = [];
    const metrics = options.metrics ? new HubMetrics(hub) : undefined;
    const recent = new Map<string, RecentCalls>();
    const lifecycle = new Lifecycle(hub, metrics ? [metrics] : []);
    const callLog = options.callLog ? createCallLog(hub.log.child({ plugin: 'observability' }), options.callLogPayloads) : undefined;

    unsubscribe.push(
      lifecycle.listen(),
      hub.observe.toolCallEnd.subscribe((event) => {
        metrics?.toolCall(event);
        callLog?.(event);
        const server = event.child.name;
        let calls = recent.get(server);
        if (!calls) recent.set(server, (calls = new RecentCalls()));
        calls.record(Date.now(), (event.endedAt ?? event.startedAt) - event.startedAt, event.outcome !== 'ok');
      }),
    );
    // A removed server's figures go with it (a reload may add another of the same name).
    unsubscribe.push(hub.servers.onRemoved((name) => recent.delete(name)));
    if (metrics) {
      unsubscribe.push(
        hub.observe.mcpRequest.subscribe((event) => metrics.mcpRequest(event.endpoint, event.body, event.revision)),
        hub.observe.httpRequest.subscribe((event) => metrics.httpRequest(event.route, event.status)),
        hub.observe.authFailure.subscribe((event) => metrics.authFailure(event.reason)),
        hub.observe.tokenRotation.subscribe(() => metrics.tokenRotation()),
        hub.observe.rateLimited.subscribe(() => metrics.rateLimited()),
        hub.observe.toolWithheld.subscribe((event) => metrics.toolWithheld(event.server, event.cause)),
      );
      registerMetricsRoute(app, hub, metrics);
    }
    const url = tracesUrl(hub.env);
    const stopTracing = url === undefined ? undefined : startTracing(hub, url);
    if (url !== undefined) hub.log.info({ url }, 'tracing: spans go to the OTLP/HTTP endpoint');

    if (options.statusPage) {
      await registerStatusPage(app, hub, { recent: (server) => recent.get(server), times: (server) => lifecycle.times.get(server) }, options.statusRefreshSeconds);
    }
    app.addHook('onClose', async () => {
      unsubscribe.forEach((stop) => stop());
      await stopTracing?.();
    });
  },
});
