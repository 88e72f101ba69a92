/**
 * Environment variables read outside the kernel's settings table (core/config/settings.ts): by
 * the store, the log, the plugins. They have no TypeBox schema to generate from, so they
 * are listed here, once, and docs/reference/environment.md is generated from this list and
 * the settings together. A variable a plugin reads belongs here (or in the plugin's README
 * when only that plugin's users need it).
 */
export interface DocumentedVariable {
  names: readonly string[];
  fallback: string;
  meaning: string;
  readBy: string;
}

export const OTHER_VARIABLES: readonly DocumentedVariable[] = [
  { names: ['MONGODB_URL'], fallback: 'unset', meaning: 'when set, the MongoDB store instead of the embedded one (needed for replicas on several machines)', readBy: 'kernel (store)' },
  {
    names: ['HUB_PASSWORD'],
    fallback: 'generated',
    meaning: 'the shared operator password for the approval page, `/status`, `/upstreams` and `/tool-approvals` (generated once into `<DATA_PATH>/hub-password` and printed)',
    readBy: 'kernel (operator service)',
  },
  {
    names: ['HUB_PASSWORD_FILE', 'MONGODB_URL_FILE', 'METRICS_TOKEN_FILE', 'ALT_ROUTING_API_KEY_FILE', '<clientSecretEnv>_FILE'],
    fallback: 'unset',
    meaning:
      'read that secret from a file instead (a container or Kubernetes secret mount): its content without trailing line ends. Setting both `X` and `X_FILE` stops the start, as does a file that is missing, empty, not a regular file or over 64 KiB; the message names the variable, never the secret',
    readBy: 'kernel',
  },
  {
    names: ['LOG_LEVEL'],
    fallback: 'info',
    meaning: "pino log level; at `info`, one access record per HTTP request; `debug` adds Fastify's own request records and the probes'",
    readBy: 'kernel (log)',
  },
  { names: ['MCP_DIAGNOSTICS'], fallback: 'unset', meaning: '`true` adds `describe_connection` to `/hub` and `hub-stdio`', readBy: '[diagnostics](../../plugins/diagnostics/README.md)' },
  {
    names: ['METRICS_TOKEN'],
    fallback: 'unset',
    meaning: 'a bearer token for `GET /metrics`; once set, wanted from everyone, a scraper on this machine included (an API token works too)',
    readBy: '[observability](../../plugins/observability/README.md)',
  },
  { names: ['METRICS_PUBLIC'], fallback: 'unset', meaning: '`true` opens `GET /metrics` to everyone, when `METRICS_TOKEN` is unset', readBy: '[observability](../../plugins/observability/README.md)' },
  {
    names: ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_SERVICE_NAME'],
    fallback: 'unset',
    meaning: 'when an endpoint is set, OpenTelemetry traces go there over OTLP (`/v1/traces`; protocol `http/protobuf` by default, `http/json` or `grpc`)',
    readBy: '[observability](../../plugins/observability/README.md)',
  },
  {
    names: ['DOCKER_HOST'],
    fallback: '`unix:///var/run/docker.sock`',
    meaning: "the Docker Engine API (or podman's compatible service) that runs `docker` servers",
    readBy: '[lifecycle-docker](../../plugins/lifecycle-docker/README.md)',
  },
  { names: ['MAP_*', 'ALT_ROUTING_API_KEY'], fallback: '', meaning: "the map server's data sources and limits", readBy: '[map-tools](../../plugins/map-tools/README.md)' },
];
