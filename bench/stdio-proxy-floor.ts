// The stdio proxy floor of the carriage bench: a `node:http` server that forwards each
// JSON-RPC request to server-everything over the child's stdio (everything-stdio.ts: ids of
// its own, one `initialize` made at start) and answers with the child's answer under the
// request's id. No checks and no MCP library on the HTTP side: one HTTP exchange and one pipe
// round trip per call, what any gateway in front of a stdio child does at the least. The
// handshakes are answered here (floor-answer.ts): the child has made its own. In its own
// process; prints its port, exits (the child with it) when stdin closes. Its CPU per
// request is this process's only: the child's is not a gateway's.
import { startEverythingStdio } from './everything-stdio.js';
import { answerText, isHandshake } from './floor-answer.js';
import { jsonRpcHttpServer, sendJson } from './json-rpc-http-server.js';
import { listenAndReportPort } from './report-port.js';

const child = await startEverythingStdio();
process.on('exit', child.stop);
const server = jsonRpcHttpServer((request, modern, response) => {
  if (isHandshake(request.method)) {
    sendJson(response, answerText(request, modern));
    return;
  }
  child.request(request.method, request.params, (answer) => {
    answer.id = request.id;
    sendJson(response, JSON.stringify(answer));
  });
});
listenAndReportPort(server);
