// A trivial MCP server over HTTP on a loopback port, in its own process: the "direct"
// side of the carriage benches. Prints its port on stdout, exits when stdin closes.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { listenAndReportPort } from './report-port.js';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-child', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Answers its text', inputSchema: fromJsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }) },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  return server;
});
const node = toNodeHandler(handler);
const server = createServer((request, response) => void node(request, response));
listenAndReportPort(server);
