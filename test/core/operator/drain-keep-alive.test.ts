import { Agent, request } from 'node:http';
import t from 'tap';
import { startHubBin } from '../../helpers/hub-bin.js';

// Issue 44, S7: at the end of the drain each kept-alive client got a connection reset:
// the listener closed the idle kept-alive sockets while the client was sending its next
// request on them. From the start of the drain every answer says `Connection: close`, and
// the sockets kept alive are given the moment to come back before the listener closes.
// Clients that keep sending on kept-alive connections through a SIGTERM see answers (200,
// then 503) and then refused connections, never a reset. Issue 54.5 (15 resets among 1,037
// requests of 16 kept-alive clients): a socket whose kept-alive answer was still being
// written when the drain ended was not waited for, and the listener's close shut it as the
// client was about to send on it (a reset, or here a last answer without `Connection:
// close`: 3 of 6 runs of 16 clients failed so before the fix). Both a probe and a tool call.

const CLIENTS = 16;
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_servers', arguments: {} } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

type Outcome = 'answered' | 'refused' | 'reset';

/** One request on `agent`: a GET of /readyz, or a tool call on /hub. */
function send(url: string, agent: Agent, road: 'readyz' | 'hub'): Promise<{ outcome: Outcome; status?: number; connection?: string }> {
  return new Promise((resolve) => {
    const call = road === 'hub';
    const sent = request(`${url}/${road}`, { agent, method: call ? 'POST' : 'GET', headers: call ? MCP_HEADERS : {} }, (response) => {
      response.resume();
      response.once('end', () => resolve({ outcome: 'answered', status: response.statusCode ?? 0, connection: response.headers.connection ?? '' }));
      response.once('error', () => resolve({ outcome: 'reset' }));
    });
    sent.once('error', (error: NodeJS.ErrnoException) => resolve({ outcome: error.code === 'ECONNREFUSED' ? 'refused' : 'reset' }));
    sent.end(call ? CALL : undefined);
  });
}

for (const road of ['readyz', 'hub'] as const)
  t.test(`clients sending to /${road} on kept-alive connections through a SIGTERM see answers then refusals, no reset`, async (t) => {
    const hub = await startHubBin(t, { config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: {} } });
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    t.teardown(() => agent.destroy());
    const outcomes: Outcome[] = [];
    const lastAnswers: { status?: number; connection?: string }[] = [];
    let warmed = 0;
    let warm: () => void = () => undefined;
    const allWarm = new Promise<void>((resolve) => (warm = resolve));
    const loop = async () => {
      let sent = 0;
      let last: { status?: number; connection?: string } = {};
      for (;;) {
        const answer = await send(hub.url, agent, road);
        outcomes.push(answer.outcome);
        if (answer.outcome !== 'answered') {
          lastAnswers.push(last);
          return answer.outcome;
        }
        last = answer;
        sent += 1;
        if (sent === 20 && (warmed += 1) === CLIENTS) warm();
      }
    };
    const loops = Array.from({ length: CLIENTS }, loop);
    await allWarm;
    hub.signal('SIGTERM');
    const ends = await Promise.all(loops);
    t.equal(await hub.exited, 0, 'the hub exits cleanly');
    t.equal(outcomes.filter((outcome) => outcome === 'reset').length, 0, `no reset among ${outcomes.length} requests`);
    t.same(ends, Array(CLIENTS).fill('refused'), 'each client ends on a refused connection');
    // Every answer given during the drain (503) closes its connection. A last answer of 200 came just before it and may
    // still be kept alive: a residual of issue 54.5 (the hub can close that socket as the answer ends; the client's next
    // request then finds it closed and is refused, not reset), counted here and left open in the issue.
    t.same(
      lastAnswers.filter((answer) => answer.status === 503 && answer.connection !== 'close'),
      [],
      'each answer of the drain said Connection: close',
    );
    const keptAlive = lastAnswers.filter((answer) => answer.connection !== 'close').length;
    if (keptAlive > 0) t.comment(`${keptAlive} of ${CLIENTS} clients' last answer (200, before the drain) was kept alive`);
    t.ok(
      lastAnswers.every((answer) => answer.status === 200 || answer.status === 503),
      'and was an answer of the hub (200, or 503 once draining)',
    );
  });
