import type { ServerView } from '../../core/plugin/meta-tool.js';

/** How the hub reaches a server, as OpenTelemetry's `network.transport`, `server.address` and `server.port` say it. */
export interface ServerTransport {
  /** `pipe` (stdio: a process or a container), `tcp` (HTTP, SSE, a TCP socket), `unix`, or `inproc` (a server in the hub's process). */
  readonly transport: 'pipe' | 'tcp' | 'unix' | 'inproc';
  readonly address?: string;
  readonly port?: number;
}

const known = new WeakMap<ServerView, ServerTransport>();

/** Read from the server's entry once per server (its view is the same object for its life). */
export function transportOf(server: ServerView): ServerTransport {
  let transport = known.get(server);
  if (!transport) known.set(server, (transport = fromEntry(server.entry)));
  return transport;
}

function fromEntry(entry: Readonly<Record<string, unknown>>): ServerTransport {
  if (typeof entry.url === 'string') {
    try {
      const url = new URL(entry.url);
      return { transport: 'tcp', address: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
    } catch {
      return { transport: 'tcp' };
    }
  }
  if (entry.type === 'tcp') return { transport: 'tcp', address: typeof entry.host === 'string' ? entry.host : '127.0.0.1', ...(typeof entry.port === 'number' && { port: entry.port }) };
  if (entry.type === 'unix') return { transport: 'unix', ...(typeof entry.path === 'string' && { address: entry.path }) };
  if (typeof entry.command === 'string' || entry.type === 'docker' || entry.type === 'stdio') return { transport: 'pipe' };
  return { transport: 'inproc' };
}
