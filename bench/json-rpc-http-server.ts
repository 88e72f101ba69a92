// The `node:http` side of the floors that use no framework (http-floor.ts,
// stdio-proxy-floor.ts): each POST's body read whole and parsed as one JSON-RPC message, a
// notification answered 202, a request handed on with the response to answer it on. No
// checks: the floors' clients are the benches.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { MODERN, type FloorRequest } from './floor-answer.js';

/** `handle` answers each request (`modern`: the request names 2026-07-28), with `sendJson`. */
export function jsonRpcHttpServer(handle: (request: FloorRequest, modern: boolean, response: ServerResponse) => void): Server {
  return createServer((request, response) => {
    // The load client may open a GET stream or end a session; a stateless server has neither.
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FloorRequest;
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      handle(message, request.headers['mcp-protocol-version'] === MODERN, response);
    });
  });
}

export function sendJson(response: ServerResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}
