// The bare HTTP floor of the carriage bench: a `node:http` server that reads the body,
// parses the JSON-RPC request and answers a fixed tool result, with no MCP library and
// no checks. What the hub's figures are divided by. It answers the two handshakes the
// load client makes (2026-07-28's `server/discover`, 2025-11-25's `initialize`), so the
// same load client drives it. In its own process; prints its port, exits when stdin closes.
import { createServer } from 'node:http';
import { listenAndReportPort } from './report-port.js';

const serverInfo = { name: 'floor', version: '1.0.0' };
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

function answer(method: unknown, modern: boolean): Record<string, unknown> {
  if (method === 'server/discover') return { supportedVersions: [MODERN], capabilities: { tools: {} }, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } };
  if (method === 'initialize') return { protocolVersion: LEGACY, capabilities: { tools: {} }, serverInfo };
  const content = [{ type: 'text', text: 'Echo: hi' }];
  return modern ? { content, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } } : { content };
}

const server = createServer((request, response) => {
  // The load client may open a GET stream or end a session; a stateless server has neither.
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: unknown };
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer(message.method, request.headers['mcp-protocol-version'] === MODERN) });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  });
});
listenAndReportPort(server);
