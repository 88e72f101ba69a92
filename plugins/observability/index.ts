import { errorMessage, definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { createCallLog } from './call-log.js';
import { readToolFigures, RecentHistory } from './figures.js';
import { Lifecycle } from './lifecycle.js';
import { HUB_SERVER, HubMetrics } from './metrics.js';
import { registerMetricsRoute } from './metrics-route.js';
import { ObservabilityOptions } from './options.js';
import type { ReloadRecord } from './status-data.js';
import { registerStatusPage } from './status-page.js';
import { tracesTarget } from './traces-url.js';
import type { Tracing } from './tracing.js';

/** How often the status page's "last hour" reads the registry. */
const HISTORY_INTERVAL_MS = 60_000;

/**
 * Metrics, traces, the call log and the status page, all fed by what the kernel publishes
 * (`hub.observe`); with this plugin off nothing listens and the kernel builds no event.
 * Per tool call the plugin does two counter and histogram updates on label sets made
 * once, and writes the call log's line; the status page reads the registry when drawn.
 */
export default definePlugin({
  ...manifest,
  reservedPaths: ['metrics', 'status', 'status.json'],
  options: ObservabilityOptions,
  async register(app, options, hub) {
    const startedAt = Date.now();
    const target = tracesTarget(hub.env);
    const unsubscribe: Array<() => void> = [];
    // The status page reads its figures from the registry, so it exists whenever either does.
    const metrics = options.metrics || options.statusPage ? new HubMetrics(hub, startedAt, app.server) : undefined;
    const lifecycle = new Lifecycle(hub, metrics ? [metrics] : []);
    // OpenTelemetry is loaded only when there is somewhere to send spans.
    const tracing: Tracing | undefined = target === undefined ? undefined : await (await import('./tracing.js')).startTracing(hub, target);
    if (target !== undefined) hub.log.info({ collector: target.url, protocol: target.protocol }, 'tracing: spans go to the OTLP collector');
    const callLog = options.callLog ? createCallLog(hub.log.child({ plugin: 'observability' }), options.callLogPayloads, (event) => tracing?.idsOf(event)) : undefined;
    let lastReload: ReloadRecord | undefined;

    unsubscribe.push(lifecycle.listen());
    if (metrics || callLog) {
      unsubscribe.push(
        hub.observe.toolCallEnd.subscribe((event) => {
          if (metrics) metrics.toolCall(event, metrics.labelsOf(event));
          callLog?.({ server: event.child.name, event });
        }),
        hub.observe.hubToolCall.subscribe((event) => {
          metrics?.hubToolCall(event);
          callLog?.({ server: HUB_SERVER, event });
        }),
      );
    }
    unsubscribe.push(
      hub.observe.configReload.subscribe((event) => {
        const now = Date.now();
        lastReload = { at: now, event };
        metrics?.reloaded(event, now);
        if (event.outcome === 'applied') lifecycle.prune(new Set(hub.servers.list().map((server) => server.name)));
      }),
    );
    if (metrics) {
      unsubscribe.push(
        hub.observe.toolCallStart.subscribe(() => metrics.callStarted()),
        hub.observe.mcpRequestEnd.subscribe((event) => metrics.mcpRequestEnd(event, performance.now())),
        hub.observe.httpRequest.subscribe((event) => metrics.httpRequest(event.route, event.status)),
        hub.observe.authFailure.subscribe((event) => metrics.authFailure(event.reason)),
        hub.observe.tokenRotation.subscribe(() => metrics.tokenRotation()),
        hub.observe.rateLimited.subscribe(() => metrics.rateLimited()),
        hub.observe.toolWithheld.subscribe((event) => metrics.toolWithheld(event.server, event.cause)),
        hub.observe.interception.subscribe((event) => metrics.interception(event)),
        hub.observe.pluginFault.subscribe((event) => metrics.pluginFailure(event.plugin, event.site)),
        hub.observe.unhandledRejection.subscribe(() => metrics.unhandledRejection()),
      );
      // Series for the servers (and their tools from the snapshots) exist at 0 from the start.
      app.addHook('onReady', async () => metrics.sync());
    }
    if (options.metrics && metrics) registerMetricsRoute(app, hub, metrics);

    if (options.statusPage && metrics) {
      const history = new RecentHistory();
      const read = async () => history.record(Date.now(), await readToolFigures(metrics));
      app.addHook('onReady', read);
      const timer = setInterval(() => void read().catch((error: unknown) => hub.log.warn({ err: errorMessage(error) }, 'status page: reading the metrics failed')), HISTORY_INTERVAL_MS);
      timer.unref();
      unsubscribe.push(() => clearInterval(timer));
      await registerStatusPage(app, hub, { metrics, history, times: (server) => lifecycle.times.get(server), lastReload: () => lastReload, startedAt }, options.statusRefreshSeconds);
    }
    app.addHook('onClose', async () => {
      unsubscribe.forEach((stop) => stop());
      await tracing?.stop();
    });
  },
});
