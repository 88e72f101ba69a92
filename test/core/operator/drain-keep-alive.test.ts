import { Agent, request } from 'node:http';
import t from 'tap';
import { startHubBin } from '../../helpers/hub-bin.js';

// Issue 44, S7: at the end of the drain each kept-alive client got a connection reset:
// the listener closed the idle kept-alive sockets while the client was sending its next
// request on them. From the start of the drain every answer says `Connection: close`, and
// the sockets kept alive are given the moment to come back before the listener closes.
// Clients that keep sending on kept-alive connections through a SIGTERM see answers (200,
// then 503) and then refused connections, never a reset.

const CLIENTS = 8;

type Outcome = 'answered' | 'refused' | 'reset';

function get(url: string, agent: Agent): Promise<{ outcome: Outcome; status?: number; connection?: string }> {
  return new Promise((resolve) => {
    const sent = request(`${url}/readyz`, { agent }, (response) => {
      response.resume();
      response.once('end', () => resolve({ outcome: 'answered', status: response.statusCode ?? 0, connection: response.headers.connection ?? '' }));
      response.once('error', () => resolve({ outcome: 'reset' }));
    });
    sent.once('error', (error: NodeJS.ErrnoException) => resolve({ outcome: error.code === 'ECONNREFUSED' ? 'refused' : 'reset' }));
    sent.end();
  });
}

t.test('clients sending on kept-alive connections through a SIGTERM see answers then refusals, no reset', async (t) => {
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
      const answer = await get(hub.url, agent);
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
  // Whether a client's last answer came during the drain (503) or just before it (200) is the machine's timing; either closes its connection.
  t.same(lastAnswers.map((answer) => answer.connection), Array(CLIENTS).fill('close'), "each client's last answer said Connection: close");
  t.ok(lastAnswers.every((answer) => answer.status === 200 || answer.status === 503), 'and was an answer of the hub (200, or 503 once draining)');
});
