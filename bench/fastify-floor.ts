// The Fastify floor of the carriage bench: the contract of http-floor.ts (the body read and
// parsed, a fixed tool result, the two handshakes) as a Fastify app with its defaults, its
// default JSON body parser and one route answering with `reply.send(object)`. What any
// Fastify app that parses a JSON request costs per request, the hub's framework included;
// its CPU per request over http-floor.ts's is the framework's share. In its own process;
// prints its port, exits when stdin closes.
import Fastify from 'fastify';
import { answer, MODERN, type FloorRequest } from './floor-answer.js';
import { listenAndReportPort } from './report-port.js';

const app = Fastify();
app.post<{ Body: FloorRequest }>('/mcp', (request, reply) => {
  const { id, method } = request.body;
  if (id === undefined) reply.code(202).send();
  else reply.send({ jsonrpc: '2.0', id, result: answer(method, request.headers['mcp-protocol-version'] === MODERN) });
});
await app.ready();
listenAndReportPort(app.server);
