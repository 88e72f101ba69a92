import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'observability',
  description: 'Prometheus /metrics, OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT) through _meta, a call log and the /status page.',
  enabledByDefault: true,
};

export default manifest;
