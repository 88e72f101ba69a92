import http from 'node:http';
import https from 'node:https';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, type FetchLike } from '@modelcontextprotocol/client';
import { nodeFetch, nodeRequest, type NodeRequest } from '../../net/node-fetch.js';

/**
 * An idle kept-alive connection is closed after this long: below the 5 s that Node
 * servers keep one open, so the hub seldom sends on a connection the server is closing.
 * A server that announces a shorter `Keep-Alive: timeout` is believed.
 */
const IDLE_CONNECTION_MS = 4_000;

export interface ChildFetch {
  fetch: FetchLike;
  /** The same connections without the `Response` around the answer. */
  request: NodeRequest;
  /** Closes the connections; for when the child's connection ends. */
  close(): void;
}

/**
 * The fetch a remote child's transport uses: connections to that server kept alive
 * between calls, answers bounded like a stdio message, event streams passed on as they
 * arrive. One per connection, closed with it.
 */
export function childFetch(): ChildFetch {
  const agents = {
    http: new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    https: new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };
  const request = nodeRequest({ agents, maxBytes: STDIO_DEFAULT_MAX_BUFFER_SIZE, streamEvents: true });
  return {
    fetch: nodeFetch(request),
    request,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
