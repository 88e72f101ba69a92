import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { ExportFailureLog } from './export-guard.js';
import type { TracesTarget } from './traces-url.js';

/**
 * The official OTLP exporter for the target's protocol, loaded only now: a hub that does
 * not trace loads none, and one that does loads only its own protocol's (gRPC's is the
 * heaviest).
 */
export async function createExporter(target: TracesTarget): Promise<SpanExporter> {
  const { url, headers } = target;
  switch (target.protocol) {
    case 'http/json': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      return new OTLPTraceExporter({ url, headers });
    }
    case 'http/protobuf': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
      return new OTLPTraceExporter({ url, headers });
    }
    case 'grpc': {
      const [{ OTLPTraceExporter }, { Metadata }] = await Promise.all([import('@opentelemetry/exporter-trace-otlp-grpc'), import('@grpc/grpc-js')]);
      const metadata = new Metadata();
      for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
      return new OTLPTraceExporter({ url, metadata });
    }
  }
}

/** An exporter whose every outcome the failure log hears (the SDK itself reports failures to a process-wide handler the hub leaves alone). */
export class WatchedExporter implements SpanExporter {
  constructor(
    private readonly exporter: SpanExporter,
    private readonly failures: ExportFailureLog,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exporter.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.failures.succeeded();
      else this.failures.failed(result.error?.message ?? 'the export failed');
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}
