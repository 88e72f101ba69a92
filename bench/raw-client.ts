// The load client of the carriage bench: `tools/call` over raw keep-alive HTTP/1.1
// connections, one per caller, in a closed loop, from its own process. Each request is
// the bytes an MCP client of the revision sends (the standard headers, the per-request
// envelope on 2026-07-28), built once; each answer is read with a minimal HTTP/1.1 parser
// (a Content-Length body or a chunked one) and must hold the expected text, or the run
// fails. Hand-written rather than an HTTP client library: the point is to cost the
// measured subject as little as possible, and to say what it cost: besides the latency
// figures it prints its own CPU per call and the ceiling that implies (one process on one
// core: a million microseconds over its CPU microseconds per call).
// Run by the benches: node dist/bench/raw-client.js <json RawLoad>
import { connect, type Socket } from 'node:net';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { percentile } from './measure.js';

export interface RawLoad {
  url: string;
  callers: number;
  /** Calls measured, after `warmup` calls that are not. */
  calls: number;
  warmup: number;
  revision: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** Every answer must contain this text. */
  expect: string;
  bearer?: string | undefined;
}

export interface RawFigures {
  callers: number;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  callsPerSecond: number;
  /** This client's own CPU per call, in microseconds. */
  clientCpuUsPerCall: number;
}

const load = JSON.parse(process.argv[2] ?? '{}') as RawLoad;
const target = new URL(load.url);
const request = Buffer.from(requestText(load));
const latencies: number[] = [];
let remaining = load.warmup + load.calls;
let measuredStart = 0;
let measuredCpu: NodeJS.CpuUsage | undefined;

/** The request as an SDK client of the revision sends it. */
function requestText({ revision, tool, arguments: args, bearer }: RawLoad): string {
  const modern = revision === '2026-07-28';
  const meta = { [PROTOCOL_VERSION_META_KEY]: revision, [CLIENT_INFO_META_KEY]: { name: 'raw-client', version: '1.0.0' }, [CLIENT_CAPABILITIES_META_KEY]: {} };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args, ...(modern && { _meta: meta }) } });
  const headers = [
    `POST ${target.pathname} HTTP/1.1`,
    `host: ${target.host}`,
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    `mcp-protocol-version: ${revision}`,
    ...(modern ? ['mcp-method: tools/call', `mcp-name: ${tool}`] : []),
    ...(bearer ? [`authorization: Bearer ${bearer}`] : []),
    `content-length: ${Buffer.byteLength(body)}`,
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/** One caller: a keep-alive connection that sends the next request when the answer is in. */
function caller(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
    let pending: Buffer = Buffer.alloc(0);
    let sentAt = 0;
    const send = (): void => {
      if (remaining === 0) {
        socket.end();
        resolve();
        return;
      }
      remaining -= 1;
      if (remaining === load.calls - 1 && measuredStart === 0) {
        measuredStart = performance.now();
        measuredCpu = process.cpuUsage();
      }
      sentAt = performance.now();
      socket.write(request);
    };
    socket.on('connect', send);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const answer = parseAnswer(pending);
      if (!answer) return;
      pending = pending.subarray(answer.end);
      if (answer.status !== 200 || !answer.body.includes(load.expect)) {
        reject(new Error(`unexpected answer (HTTP ${answer.status}): ${answer.body.slice(0, 300)}`));
        socket.destroy();
        return;
      }
      if (measuredStart !== 0) latencies.push(performance.now() - sentAt);
      send();
    });
  });
}

/** One complete HTTP/1.1 answer at the start of `buffer`, or undefined while it is incomplete. */
function parseAnswer(buffer: Buffer): { status: number; body: string; end: number } | undefined {
  const headerEnd = buffer.indexOf('\r\n\r\n');
  if (headerEnd === -1) return undefined;
  const head = buffer.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const bodyStart = headerEnd + 4;
  if (length) {
    const end = bodyStart + Number(length[1]);
    return buffer.length < end ? undefined : { status, body: buffer.toString('utf8', bodyStart, end), end };
  }
  if (!/\r\ntransfer-encoding: *chunked/i.test(head)) throw new Error(`an answer with neither a length nor chunks: ${head}`);
  const parts: string[] = [];
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    const dataEnd = lineEnd + 2 + size;
    if (buffer.length < dataEnd + 2) return undefined;
    if (size === 0) return { status, body: parts.join(''), end: dataEnd + 2 };
    parts.push(buffer.toString('utf8', lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}

await Promise.all(Array.from({ length: load.callers }, caller));
const elapsedMs = performance.now() - measuredStart;
const cpu = process.cpuUsage(measuredCpu);
latencies.sort((a, b) => a - b);
const round = (value: number): number => Number(value.toFixed(3));
const figures: RawFigures = {
  callers: load.callers,
  calls: latencies.length,
  p50Ms: round(percentile(latencies, 0.5)),
  p99Ms: round(percentile(latencies, 0.99)),
  callsPerSecond: Math.round(latencies.length / (elapsedMs / 1000)),
  clientCpuUsPerCall: Number(((cpu.user + cpu.system) / latencies.length).toFixed(1)),
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(0);
