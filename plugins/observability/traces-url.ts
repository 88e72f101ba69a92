import { HUB_ERROR_CODES, StartupError } from '../../core/plugin/index.js';

/** The OTLP protocols of the OpenTelemetry exporter specification. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];

/** Where and how spans go. */
export interface TracesTarget {
  protocol: OtlpProtocol;
  url: string;
  headers: Record<string, string>;
}

/**
 * Where the traces go, from the standard variables, as the OTLP exporter specification
 * reads them: `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`,
 * else `http/protobuf`; the traces endpoint as given, else the general one (with
 * `/v1/traces` appended over HTTP; as it is for gRPC); the headers of both (the traces
 * ones win). Undefined when no endpoint is set: then nothing is traced, nothing is
 * subscribed and OpenTelemetry is not even loaded. A protocol the hub does not know
 * stops the start-up, naming the variable.
 */
export function tracesTarget(env: Readonly<NodeJS.ProcessEnv>): TracesTarget | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!traces && !base) return undefined;
  const [variable, given] = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL.trim()]
    : ['OTEL_EXPORTER_OTLP_PROTOCOL', env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf'];
  const protocol = PROTOCOLS.find((known) => known === given);
  if (!protocol) throw new StartupError(`${variable} is "${given}": the hub exports traces over ${PROTOCOLS.join(', ')}`, { code: HUB_ERROR_CODES.SETTING_INVALID });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 6 (the linter's) reads it as unneeded, TypeScript 7 needs it
  const url = traces || (protocol === 'grpc' ? (base as string) : `${(base as string).replace(/\/+$/, '')}/v1/traces`);
  return { protocol, url, headers: { ...otlpHeaders(env, 'OTEL_EXPORTER_OTLP_HEADERS'), ...otlpHeaders(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') } };
}

/** `OTEL_EXPORTER_OTLP_HEADERS` and its like: `key=value` pairs, comma-separated, URL-encoded. */
function otlpHeaders(env: Readonly<NodeJS.ProcessEnv>, variable: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (env[variable] ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new StartupError(`${variable} has a pair that is not URL-encoded: write it as key=value pairs, separated by commas`, { code: HUB_ERROR_CODES.SETTING_INVALID });
    }
  }
  return headers;
}
