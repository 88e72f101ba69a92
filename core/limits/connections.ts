import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import { addressKey } from './address.js';
import { onClose } from '../net/on-close.js';
import type { LimitSettings } from './settings.js';

export type ConnectionLimits = Pick<LimitSettings, 'maxConnections' | 'maxConnectionsPerAddress' | 'headersTimeoutMs' | 'trustedProxies'>;

/** What the guard needs of a connection: a way to end it. */
export interface Closable {
  destroy(): void;
}

interface Held {
  /** The address it counts against; none for a trusted proxy's. */
  key: string | undefined;
  /** Requests on it whose answer has not finished. */
  busy: number;
  /** Whether it has sent a request yet. */
  used: boolean;
  /** Since when it has waited for a request's headers: its opening, or the end of its last answer. */
  waitingSince: number;
}

/**
 * Who holds the process's connections. An address (an IPv6 /64 as one) holds at most
 * MAX_CONNECTIONS_PER_ADDRESS of them, a trusted proxy's as many as it needs (its clients
 * are behind it). When the process holds MAX_CONNECTIONS, a new connection takes the
 * place of one that waits for request headers and should not: one that has sent none
 * since it opened, or that has been idle beyond HEADERS_TIMEOUT_MS; the one waiting
 * longest goes. A connection with a request in flight, or an idle kept-alive one within
 * that time, is never dropped for a newcomer; when all are such, the newcomer is closed.
 */
export class ConnectionGuard<C extends Closable = Socket> {
  readonly #held = new Map<C, Held>();
  readonly #perAddress = new Map<string, number>();
  readonly #trusted: (address: string, hop: number) => boolean;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.#trusted = proxyAddr.compile(limits.trustedProxies);
  }

  get size(): number {
    return this.#held.size;
  }

  /** A connection from `address` opened: false when it must be closed at once. */
  admit(connection: C, address: string | undefined): boolean {
    const key = address === undefined || this.#trusted(address, 0) ? undefined : addressKey(address);
    if (key !== undefined && (this.#perAddress.get(key) ?? 0) >= this.limits.maxConnectionsPerAddress) return false;
    if (this.#held.size >= this.limits.maxConnections && !this.#makeRoom()) return false;
    this.#held.set(connection, { key, busy: 0, used: false, waitingSince: this.now() });
    if (key !== undefined) this.#perAddress.set(key, (this.#perAddress.get(key) ?? 0) + 1);
    return true;
  }

  requestStarted(connection: C): void {
    const held = this.#held.get(connection);
    if (!held) return;
    held.busy += 1;
    held.used = true;
  }

  requestFinished(connection: C): void {
    const held = this.#held.get(connection);
    if (!held || held.busy === 0) return;
    held.busy -= 1;
    if (held.busy === 0) held.waitingSince = this.now();
  }

  closed(connection: C): void {
    const held = this.#held.get(connection);
    if (!held) return;
    this.#held.delete(connection);
    if (held.key === undefined) return;
    const left = (this.#perAddress.get(held.key) ?? 1) - 1;
    if (left > 0) this.#perAddress.set(held.key, left);
    else this.#perAddress.delete(held.key);
  }

  #makeRoom(): boolean {
    const now = this.now();
    let victim: C | undefined;
    let longest = -1;
    for (const [connection, held] of this.#held) {
      const waited = now - held.waitingSince;
      if (held.busy > 0 || (held.used && waited <= this.limits.headersTimeoutMs) || waited <= longest) continue;
      victim = connection;
      longest = waited;
    }
    if (victim === undefined) return false;
    this.closed(victim);
    victim.destroy();
    return true;
  }
}

/**
 * The standalone server's connection limits (see ConnectionGuard), in place of
 * `server.maxConnections`, which can only refuse the newcomer.
 */
export function guardConnections(server: Server, limits: ConnectionLimits): ConnectionGuard {
  const guard = new ConnectionGuard(limits);
  server.on('connection', (socket: Socket) => {
    if (!guard.admit(socket, socket.remoteAddress)) return void socket.destroy();
    socket.once('close', () => guard.closed(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    guard.requestStarted(socket);
    onClose(response, () => guard.requestFinished(socket));
  });
  return guard;
}
