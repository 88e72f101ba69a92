import { createServer } from 'node:http';
import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import protobuf from 'protobufjs';

/** A span as the receiver decoded it, whatever the protocol (ids in hex, attributes by key). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string | undefined };
  links: Array<{ traceId: string; spanId: string }>;
  /** The `service.name` of the resource that sent it. */
  service: string | undefined;
}

/**
 * The part of OTLP's trace protocol (opentelemetry-proto, `trace.proto`, `common.proto`,
 * `resource.proto`, `trace_service.proto`) the receiver reads, with the field numbers of
 * the published schema.
 */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  repeated KeyValue attributes = 9; repeated Link links = 13; Status status = 15;
}
message Link { bytes trace_id = 1; bytes span_id = 2; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
`;
const requestType = protobuf.parse(OTLP_TRACE_PROTO, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');

type Decoded = { resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: DecodedSpan[] }> }> };
interface KeyValue {
  key: string;
  value?: Record<string, unknown>;
}
interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: KeyValue[];
  links?: Array<{ traceId: string; spanId: string }>;
  status?: { code?: number; message?: string };
}

function valueOf(value: Record<string, unknown> | undefined): unknown {
  if (!value) return undefined;
  const [first] = Object.values(value);
  // OTLP/JSON and protobufjs both write 64-bit integers as strings.
  return 'intValue' in value ? Number(first) : first;
}

function attributesOf(pairs: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((pairs ?? []).map((pair) => [pair.key, valueOf(pair.value)]));
}

function spansOf(request: Decoded): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resource of request.resourceSpans ?? []) {
    const service = attributesOf(resource.resource?.attributes)['service.name'] as string | undefined;
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind ?? 0,
          attributes: attributesOf(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message || undefined },
          links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
          service,
        });
      }
    }
  }
  return spans;
}

/** A protobuf `ExportTraceServiceRequest`, with its ids in hex as OTLP/JSON writes them. */
function decodeProtobuf(body: Uint8Array): Decoded {
  const message = requestType.toObject(requestType.decode(body), { longs: String, bytes: String, defaults: false, oneofs: false });
  const hex = (base64: unknown) => (typeof base64 === 'string' ? Buffer.from(base64, 'base64').toString('hex') : '');
  for (const resource of (message as Decoded).resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        span.traceId = hex(span.traceId);
        span.spanId = hex(span.spanId);
        span.parentSpanId = hex(span.parentSpanId);
        for (const link of span.links ?? []) Object.assign(link, { traceId: hex(link.traceId), spanId: hex(link.spanId) });
      }
    }
  }
  return message;
}

export interface OtlpReceiver {
  /** What the hub's OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  url: string;
  spans: ReceivedSpan[];
  /** The content type of each OTLP/HTTP export, or `grpc`. */
  contentTypes: string[];
}

/**
 * A stand-in for an OpenTelemetry collector on loopback, speaking OTLP as a collector does:
 * OTLP/HTTP at `/v1/traces` in protobuf or JSON (200 and an empty partial-success answer
 * in the same encoding), or OTLP/gRPC's `TraceService/Export`. It decodes what it is
 * sent and keeps every span.
 */
export async function startOtlpReceiver(t: { teardown(fn: () => unknown): void }, protocol: 'http' | 'grpc' = 'http'): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  if (protocol === 'grpc') {
    const server = new Server();
    const service: ServiceDefinition = {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: (value: Buffer) => value,
        requestDeserialize: (bytes: Buffer) => bytes,
        responseSerialize: (value: Buffer) => value,
        responseDeserialize: (bytes: Buffer) => bytes,
      },
    };
    server.addService(service, {
      Export: (call: { request: Buffer }, callback: (error: null, answer: Buffer) => void) => {
        contentTypes.push('grpc');
        spans.push(...spansOf(decodeProtobuf(call.request)));
        callback(null, Buffer.alloc(0));
      },
    });
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    t.teardown(() => server.forceShutdown());
    return { url: `http://127.0.0.1:${port}`, spans, contentTypes };
  }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const type = request.headers['content-type'] ?? '';
      contentTypes.push(type);
      const body = Buffer.concat(chunks);
      const json = type.startsWith('application/json');
      spans.push(...spansOf(json ? (JSON.parse(body.toString('utf8')) as Decoded) : decodeProtobuf(body)));
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, spans, contentTypes };
}

/** A closed port on loopback: a collector that is not there. */
export async function unreachableCollector(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
