import { randomBytes } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t from 'tap';
import { waitFor } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { errorOf, everythingEntry, operatorSession, startConsoleHub } from './helpers.js';

/*
 * Issue 52, the console's calls API (GET /console/api/calls and its event stream), against
 * a real hub and real children called by v2 SDK clients: every call is kept with its
 * caller, server, tool, outcome, duration and sizes, in a ring of the size the operator
 * set; the filters; the stream's events, heartbeat, end when the browser goes and bound per
 * session; the operator session only.
 *
 * Road x channel: the roads are /<name>/mcp on both revisions, /hub (call_tool and its own
 * tools) and the console's playground; the channel is the call record (no result is kept,
 * only its size). A tool's words in the page are the browser test's (calls-browser.test.ts).
 */

interface CallRecord {
  id: number;
  time: string;
  caller: string | null;
  callerLabel: string | null;
  server: string;
  tool: string;
  via: string | null;
  revision: string;
  outcome: string;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  errorCode: number | string | null;
  error: string | null;
  traceId: string | null;
  stderr: string[] | null;
}
interface CallList {
  kept: number;
  streams: number;
  calls: CallRecord[];
}

function config(kept: number, heartbeatSeconds: number): string {
  return JSON.stringify({
    plugins: { 'oauth-as': false, 'map-tools': false, console: { callsKept: kept, callsHeartbeatSeconds: heartbeatSeconds } },
    mcpServers: { everything: { ...everythingEntry(), keepAlive: true } },
  });
}

async function calls(url: string, cookie: string, query = ''): Promise<CallList> {
  const response = await fetch(`${url}/console/api/calls${query}`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`GET /console/api/calls answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as CallList;
}

/**
 * An event stream read as it comes: its events and comments, in order. Over node:http with
 * a socket of its own (undici's fetch opens a spare connection when a stream is aborted,
 * which, idle without a request, holds the hub's close until Node's headers timeout).
 */
async function openStream(url: string, headers: Record<string, string>) {
  const seen: { event?: string; id?: string; data?: string; comment?: string }[] = [];
  let text = '';
  const request = get(url, { headers, agent: false });
  const response = await new Promise<IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject));
  const ended = new Promise<void>((resolve) => response.once('close', resolve));
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    text += chunk;
    let end = text.indexOf('\n\n');
    while (end !== -1) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const item: (typeof seen)[number] = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) item.comment = line.slice(1).trim();
        const [key, ...rest] = line.split(': ');
        if (key === 'event' || key === 'id' || key === 'data') item[key] = rest.join(': ');
      }
      seen.push(item);
      end = text.indexOf('\n\n');
    }
  });
  return {
    status: response.statusCode,
    header: (name: string) => response.headers[name],
    seen,
    events: () => seen.filter((item) => item.event === 'call').map((item) => ({ ...(JSON.parse(item.data ?? '{}') as CallRecord), id: Number(item.id) })),
    close: async () => {
      request.destroy();
      await ended;
    },
  };
}

t.test('calls on every road are kept and listed newest first, with their figures; the filters', async (t) => {
  const { url } = await startConsoleHub(t, config(500, 15));
  const session = await operatorSession(url);
  const clients: Client[] = [];
  for (const revision of REVISIONS) clients.push(await connectClient(t, `${url}/everything/mcp`, revision));
  const [newest, older] = clients as [Client, Client];
  const message = 'x'.repeat(1000);
  await newest.callTool({ name: 'echo', arguments: { message } });
  await older.callTool({ name: 'echo', arguments: { message: 'older' }, _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
  const failed = await newest.callTool({ name: 'echo', arguments: {} });
  t.ok(failed.isError, 'echo without its message is a tool error');
  const unknown = await newest.callTool({ name: 'no-such-tool', arguments: {} }).catch((error: unknown) => error);
  t.ok(unknown, 'an unknown tool is refused');
  const viaHub = await connectClient(t, `${url}/hub`, '2026-07-28');
  await viaHub.callTool({ name: 'call_tool', arguments: { server: 'everything', tool: 'echo', arguments: { message: 'through /hub' } } });
  const played = await fetch(`${url}/console/api/servers/everything/tools/echo/call`, {
    method: 'POST',
    headers: session.headers(),
    body: JSON.stringify({ arguments: { message: 'from the playground' } }),
  });
  t.equal(played.status, 200, 'the playground calls echo');

  await waitFor('six calls kept', async () => (await calls(url, session.cookie)).calls.length >= 6);
  const list = await calls(url, session.cookie);
  t.equal(list.kept, 500, 'the ring keeps 500 by default');
  const echoes = list.calls.filter((call) => call.server === 'everything');
  t.same(
    echoes.map((call) => [call.tool, call.outcome, call.via, call.revision]),
    [
      ['echo', 'ok', 'console', '2026-07-28'],
      ['echo', 'ok', 'call_tool', '2026-07-28'],
      ['no-such-tool', 'unknown_tool', null, '2026-07-28'],
      ['echo', 'tool_error', null, '2026-07-28'],
      ['echo', 'ok', null, '2025-11-25'],
      ['echo', 'ok', null, '2026-07-28'],
    ],
    'every call on every road, newest first, with how it came and how it ended',
  );
  t.ok(
    list.calls.every((call, index) => index === 0 || list.calls[index - 1]!.id > call.id),
    'ids fall from the newest',
  );
  const big = echoes.at(-1)!;
  t.equal(big.bytesIn, JSON.stringify({ message }).length, 'bytes in: the arguments as JSON');
  t.ok(big.bytesOut > 1000, `bytes out: the result as JSON (${big.bytesOut})`);
  t.ok(big.durationMs > 0 && big.durationMs < 60_000, 'a duration in ms');
  t.ok(Date.parse(big.time) <= Date.now(), 'a time');
  t.equal(echoes.at(-2)!.traceId, '0af7651916cd43dd8448eb211c80319c', 'the caller’s trace id');
  const toolError = echoes.find((call) => call.outcome === 'tool_error')!;
  t.match(toolError.error, /message/i, 'a tool error keeps the tool’s words');
  t.equal(echoes[0]!.caller, 'console', 'the playground’s caller is the console');
  t.equal(echoes.at(-1)!.caller, null, 'an open hub’s caller has no name');

  t.same(
    (await calls(url, session.cookie, '?outcome=failed')).calls.map((call) => call.outcome),
    ['unknown_tool', 'tool_error'],
    'outcome=failed: every outcome but ok',
  );
  t.same(
    (await calls(url, session.cookie, '?outcome=tool_error')).calls.map((call) => call.tool),
    ['echo'],
    'one outcome',
  );
  t.same((await calls(url, session.cookie, '?caller=console')).calls.length, 1, 'by caller');
  t.same((await calls(url, session.cookie, '?server=nowhere')).calls, [], 'by server');
  t.equal((await calls(url, session.cookie, '?limit=2')).calls.length, 2, 'limit: the newest ones');
  const bad = await fetch(`${url}/console/api/calls?outcome=bogus`, { headers: { cookie: session.cookie } });
  t.equal(bad.status, 400, 'an outcome that is none is refused');
  t.equal((await errorOf(bad)).code, 'HUB_ERR_OPERATOR_REQUEST_INVALID');
});

t.test('bytes out on a server’s own endpoint: the answer as the hub wrote it, counted by its writer, not serialised again', async (t) => {
  const { url } = await startConsoleHub(t, config(500, 15));
  const session = await operatorSession(url);
  // Non-ASCII, so that characters and bytes differ; long, so that the envelope is a small part.
  const message = `é${'ü'.repeat(50_000)}`;
  for (const revision of REVISIONS) {
    const written: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) written.push(Buffer.byteLength(await response.clone().text()));
      return response;
    };
    const client = new Client({ name: 'hub-test', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/everything/mcp`), { fetch: counting }));
    t.teardown(() => client.close());
    await client.callTool({ name: 'echo', arguments: { message } });
    t.equal(written.length, 1, `${revision}: one answer to the call`);
    await waitFor(`${revision}: its call kept`, async () => (await calls(url, session.cookie, `?server=everything`)).calls.some((call) => call.revision === revision));
    const record = (await calls(url, session.cookie, '?server=everything')).calls.find((call) => call.revision === revision)!;
    t.equal(record.bytesIn, Buffer.byteLength(JSON.stringify({ message })), `${revision}: bytes in, the arguments as JSON in UTF-8`);
    t.equal(record.bytesOut, written[0], `${revision}: bytes out, the ${written[0]} bytes of the answer the caller read`);
  }
});

t.test('an API token caller is shown with its label, learnt when a new token calls; the caller filter takes the label', async (t) => {
  const { url } = await startConsoleHub(t, JSON.stringify({ plugins: { 'map-tools': false }, mcpServers: { everything: { ...everythingEntry(), keepAlive: true } } }));
  const session = await operatorSession(url);
  const mint = async (body: Record<string, unknown>): Promise<{ id: string; token: string }> => {
    const response = await fetch(`${url}/console/api/tokens`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ resources: ['everything'], ...body }) });
    t.equal(response.status, 201, 'minted');
    return (await response.json()) as { id: string; token: string };
  };
  const callAs = async (token: string, message: string, revision: (typeof REVISIONS)[number]) => {
    const client = await connectClient(t, `${url}/everything/mcp`, revision, { authorization: `Bearer ${token}` });
    await client.callTool({ name: 'echo', arguments: { message } });
  };
  // The label is markup: the page shows it as text (calls-browser.test.ts); here it is kept as minted.
  const laptop = await mint({ label: 'laptop <b>ci</b>' });
  await callAs(laptop.token, 'first', '2026-07-28');
  await waitFor('the laptop’s call kept', async () => (await calls(url, session.cookie)).calls.length >= 1);
  // Minted after the ring learnt the first token's label: a new id makes it read the listing again.
  const unlabelled = await mint({});
  const ci = await mint({ label: 'ci runner' });
  await callAs(ci.token, 'second', '2025-11-25');
  await callAs(unlabelled.token, 'third', '2026-07-28');
  await callAs(laptop.token, 'fourth', '2025-11-25');
  await waitFor('four calls kept', async () => (await calls(url, session.cookie)).calls.length >= 4);
  const list = await calls(url, session.cookie);
  t.same(
    list.calls.map((call) => [call.caller, call.callerLabel]),
    [
      [`api-token:${laptop.id}`, 'laptop <b>ci</b>'],
      [`api-token:${unlabelled.id}`, null],
      [`api-token:${ci.id}`, 'ci runner'],
      [`api-token:${laptop.id}`, 'laptop <b>ci</b>'],
    ],
    'each call with its token’s id and label (none for a token minted without one), in the order they ended',
  );
  t.same(
    (await calls(url, session.cookie, `?caller=${encodeURIComponent('ci runner')}`)).calls.map((call) => call.caller),
    [`api-token:${ci.id}`],
    'the caller filter takes a label',
  );
  t.same(
    (await calls(url, session.cookie, `?caller=${encodeURIComponent(`api-token:${laptop.id}`)}`)).calls.map((call) => call.callerLabel),
    ['laptop <b>ci</b>', 'laptop <b>ci</b>'],
    'and an id',
  );
});

t.test('a call the server failed keeps the last lines of its stderr, secrets masked; an ok call none', async (t) => {
  const crashy = fileURLToPath(new URL('../../fixtures/children/crashy.js', import.meta.url));
  const literal = `lit-${randomBytes(8).toString('hex')}`;
  const bearer = randomBytes(10).toString('hex');
  const note = `upstream refused ${literal}; sent Authorization: Bearer ${bearer}`;
  const entry = { command: process.execPath, args: [crashy], env: { API_TOKEN: literal, CRASH_NOTE: note } };
  const { url } = await startConsoleHub(
    t,
    JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { crashy: entry, everything: { ...everythingEntry(), keepAlive: true } } }),
  );
  const session = await operatorSession(url);
  const client = await connectClient(t, `${url}/crashy/mcp`, '2026-07-28');
  await client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined);
  const ok = await connectClient(t, `${url}/everything/mcp`, '2025-11-25');
  await ok.callTool({ name: 'echo', arguments: { message: 'fine' } });
  await waitFor('both calls kept', async () => (await calls(url, session.cookie)).calls.length >= 2);
  const list = await calls(url, session.cookie);
  const failed = list.calls.find((call) => call.server === 'crashy')!;
  t.equal(failed.outcome, 'protocol_error', 'the crash is a protocol error');
  t.same(
    failed.stderr,
    ['upstream refused [secret kept]; sent Authorization: Bearer [secret kept]', 'crashing on request'],
    'the child’s last stderr lines, the entry’s literal secret and the bearer token masked',
  );
  t.notOk(JSON.stringify(list).includes(literal) || JSON.stringify(list).includes(bearer), 'no secret in the answer');
  t.equal(list.calls.find((call) => call.server === 'everything')!.stderr, null, 'an ok call keeps no stderr');
});

t.test('the ring never holds more than callsKept: the oldest goes', async (t) => {
  const { url } = await startConsoleHub(t, config(3, 15));
  const session = await operatorSession(url);
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  for (let index = 0; index < 5; index += 1) await client.callTool({ name: 'echo', arguments: { message: `call ${index}` } });
  await waitFor('the fifth call kept', async () => (await calls(url, session.cookie)).calls[0]?.id === 5);
  const list = await calls(url, session.cookie);
  t.same(
    list.calls.map((call) => [call.id, call.bytesIn]),
    [5, 4, 3].map((id) => [id, JSON.stringify({ message: `call ${id - 1}` }).length]),
    'the three newest calls, the oldest two gone',
  );
});

t.test('the event stream: new calls as they end, a heartbeat, the end when the browser goes, a bound per session', async (t) => {
  const { url } = await startConsoleHub(t, config(500, 1));
  const session = await operatorSession(url);
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  await client.callTool({ name: 'echo', arguments: { message: 'before the stream' } });
  await waitFor('the first call kept', async () => (await calls(url, session.cookie)).calls.length === 1);
  const before = (await calls(url, session.cookie)).streams;
  t.equal(before, 0, 'no stream open yet');

  const stream = await openStream(`${url}/console/api/calls/stream?outcome=failed`, { cookie: session.cookie });
  t.equal(stream.status, 200);
  t.match(stream.header('content-type'), /^text\/event-stream/);
  t.equal(stream.header('cache-control'), 'no-store');
  const byAccept = await openStream(`${url}/console/api/calls?after=0`, { cookie: session.cookie, accept: 'text/event-stream' });
  t.match(byAccept.header('content-type'), /^text\/event-stream/, 'Accept: text/event-stream on /calls is the stream too');
  await waitFor('the kept call replayed after=0', () => byAccept.events().length === 1);
  t.equal(byAccept.events()[0]!.id, 1, 'after=0 replays the kept calls first');
  t.equal((await calls(url, session.cookie)).streams, before + 2, 'two streams open');

  await client.callTool({ name: 'echo', arguments: { message: 'live' } });
  await client.callTool({ name: 'echo', arguments: {} });
  await waitFor('the failed call streamed', () => stream.events().length === 1);
  await waitFor('both calls streamed unfiltered', () => byAccept.events().length === 3);
  t.same(
    stream.events().map((event) => [event.id, event.outcome]),
    [[3, 'tool_error']],
    'the filtered stream carries only the failed call, with the event id',
  );
  t.same(
    byAccept.events().map((event) => event.outcome),
    ['ok', 'ok', 'tool_error'],
  );
  await waitFor('a heartbeat comment', () => stream.seen.some((item) => item.comment === 'heartbeat'), 10_000);
  t.pass('a heartbeat comment comes every callsHeartbeatSeconds');

  // Last-Event-ID: a reconnecting browser gets what it missed.
  const resumed = await openStream(`${url}/console/api/calls/stream`, { cookie: session.cookie, 'last-event-id': '1' });
  await waitFor('the missed calls', () => resumed.events().length === 2);
  t.same(
    resumed.events().map((event) => event.id),
    [2, 3],
    'Last-Event-ID: the calls after it',
  );

  const third = await openStream(`${url}/console/api/calls/stream`, { cookie: session.cookie });
  const refused = await fetch(`${url}/console/api/calls/stream`, { headers: { cookie: session.cookie } });
  t.equal(refused.status, 429, 'a fifth stream of one session is refused');
  t.equal((await errorOf(refused)).code, 'HUB_ERR_CONSOLE_TOO_MANY_STREAMS');
  const other = await operatorSession(url);
  const otherStream = await openStream(`${url}/console/api/calls/stream`, { cookie: other.cookie });
  t.equal(otherStream.status, 200, 'another session has its own bound');

  for (const open of [stream, byAccept, resumed, third, otherStream]) await open.close();
  await waitFor('every stream to stop following the calls', async () => (await calls(url, session.cookie)).streams === before);
  t.pass('the listener count is back to what it was once the browsers went');
  const again = await openStream(`${url}/console/api/calls/stream`, { cookie: session.cookie });
  t.equal(again.status, 200, 'and the session may open streams again');
  await again.close();
});

t.test('the calls API takes the operator session only', async (t) => {
  const { url } = await startConsoleHub(t, config(500, 15));
  const session = await operatorSession(url);
  for (const path of ['/console/api/calls', '/console/api/calls/stream']) {
    const none = await fetch(`${url}${path}`);
    t.equal(none.status, 401, `${path}: no session, no calls`);
    const bearer = await fetch(`${url}${path}`, { headers: { authorization: 'Bearer anything' } });
    t.equal(bearer.status, 401, `${path}: a bearer token is refused`);
    t.equal((await errorOf(bearer)).code, 'HUB_ERR_OPERATOR_SESSION_REQUIRED');
    const both = await fetch(`${url}${path}`, { headers: { cookie: session.cookie, authorization: 'Bearer anything' } });
    t.equal(both.status, 401, `${path}: even beside a session`);
  }
});

t.test('callsKept 0 keeps nothing, has no stream and counts no calls a minute', async (t) => {
  const { url } = await startConsoleHub(t, config(0, 15));
  const session = await operatorSession(url);
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  await client.callTool({ name: 'echo', arguments: { message: 'unheard' } });
  t.same(await calls(url, session.cookie), { kept: 0, streams: 0, calls: [] });
  const stream = await fetch(`${url}/console/api/calls/stream`, { headers: { cookie: session.cookie } });
  t.equal(stream.status, 409);
  t.equal((await errorOf(stream)).code, 'HUB_ERR_CONSOLE_CALLS_OFF');
  const overview = (await (await fetch(`${url}/console/api/overview`, { headers: { cookie: session.cookie } })).json()) as { lastMinute: unknown };
  t.equal(overview.lastMinute, null, 'nor does the overview count calls a minute');
});
