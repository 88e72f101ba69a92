// The bare HTTP floor of the carriage bench: a `node:http` server that reads the body,
// parses the JSON-RPC request and answers a fixed tool result (floor-answer.ts), with no MCP
// library and no checks. What the hub's figures are divided by. It answers the two
// handshakes too, so the same load client drives it. In its own process; prints its port,
// exits when stdin closes.
import { answerText } from './floor-answer.js';
import { jsonRpcHttpServer, sendJson } from './json-rpc-http-server.js';
import { listenAndReportPort } from './report-port.js';

listenAndReportPort(jsonRpcHttpServer((request, modern, response) => sendJson(response, answerText(request, modern))));
