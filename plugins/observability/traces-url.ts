/**
 * Where the OTLP/HTTP traces go, from the standard variables: the traces endpoint as
 * given, or `/v1/traces` under the general one. Undefined when neither is set: then
 * nothing is traced, nothing is subscribed and OpenTelemetry is not even imported.
 */
export function tracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}
