import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { onClose } from './on-close.js';

/**
 * How long, at most, the end of the drain waits for connections kept alive without a
 * request to come back with one (answered with `Connection: close`) or go away, before
 * the listener closes and closes them.
 */
export const KEPT_ALIVE_LINGER_MS = 1000;

/**
 * The kept-alive connections of the hub's HTTP server, for a drain that ends without
 * resets. Closing a socket kept alive between two requests races with the client sending
 * the next one on it, which then meets a reset. So from the start of the drain every
 * answer says `Connection: close` (Node ends the socket once it is sent), and the end of
 * the drain waits, within a bound, until every socket kept alive either came back for its
 * last answer or closed. Only a client idle through the whole wait can still meet the
 * race: the one HTTP/1.1 lets it retry (RFC 9112, 9.3.1).
 *
 * Node's server does not tell which of its sockets are idle, so they are counted here:
 * a socket is busy from its request's arrival until its answer is done.
 */
export class KeptAliveConnections {
  /**
   * Each open socket's answer in progress, in a cell made with the connection: a request
   * changes its socket's cell, not the Map (see core/in-flight-map.ts for why that matters).
   */
  readonly #connections = new Map<Socket, { answering: ServerResponse | undefined }>();
  #closing = false;
  #lingering = false;
  #changed: (() => void) | undefined;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      const connection = { answering: undefined as ServerResponse | undefined };
      this.#connections.set(socket, connection);
      socket.once('close', () => {
        connection.answering = undefined;
        this.#connections.delete(socket);
        this.#changed?.();
      });
    });
    // First among the request listeners: Fastify may answer within its own listener.
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const connection = this.#connections.get(request.socket);
      if (connection) connection.answering = response;
      if (this.#closing) response.shouldKeepAlive = false;
      this.#changed?.();
      onClose(response, () => {
        if (connection?.answering === response) connection.answering = undefined;
      });
    });
  }

  /** From now on every answer closes its connection, those being written included where their head is not sent yet. */
  startClosing(): void {
    this.#closing = true;
    for (const { answering } of this.#connections.values()) if (answering && !answering.headersSent) answering.shouldKeepAlive = false;
  }

  /** The drain is over and only the sockets' last answers are awaited: nothing is served any more. */
  get lingering(): boolean {
    return this.#lingering;
  }

  /**
   * Resolves once each socket that would stay open now has come back for a request (answered
   * with `Connection: close`) or closed, or after `limitMs`. A socket stays open when it is
   * idle, and also when it is finishing an answer that went out kept-alive before the drain
   * began (its head was sent): that client sends its next request on it the moment the
   * answer ends, and closing it then is the reset this class exists to prevent.
   */
  async lingerIdle(limitMs: number): Promise<void> {
    this.#lingering = true;
    // No new connection from here on (refused, not reset): net's close stops listening without
    // http's, which would also close the idle sockets waited for below. The listener's own
    // close comes after, and closes what is still idle then.
    if (this.server.listening) NetServer.prototype.close.call(this.server);
    const closesAfterItsAnswer = (socket: Socket) => this.#connections.get(socket)?.answering?.shouldKeepAlive === false;
    const waiting = new Set([...this.#connections.keys()].filter((socket) => !closesAfterItsAnswer(socket)));
    if (waiting.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, limitMs);
        this.#changed = () => {
          for (const socket of waiting) if (!this.#connections.has(socket) || closesAfterItsAnswer(socket)) waiting.delete(socket);
          if (waiting.size === 0) resolve();
        };
      });
    } finally {
      clearTimeout(timer);
      this.#changed = undefined;
    }
  }
}
