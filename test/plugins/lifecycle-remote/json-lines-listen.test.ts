import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import t from 'tap';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { waitFor } from '../../core/children/helpers.js';

// Issue 44, F2: the conformance suite's reference server answers subscriptions/listen with
// newline-delimited JSON under application/json, not server-sent events. The hub must read
// that framing too, or the list changes of such a child never reach the callers whose
// listen streams it acknowledged.

/** The SDK's own server, its listen streams re-framed as JSON lines, as the reference server frames them. */
async function jsonLinesChild(t: Parameters<typeof listenOnLoopback>[0]) {
  const handler = createMcpHandler(() => createKitchenSink());
  const node = toNodeHandler(handler);
  let listens = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (!body.includes('"subscriptions/listen"')) return void node(request, response, body === '' ? undefined : JSON.parse(body));
      listens += 1;
      const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
      void handler.fetch(new Request(`http://127.0.0.1${request.url ?? '/mcp'}`, { method: 'POST', headers, body })).then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        const reader = answer.body?.pipeThrough(new TextDecoderStream()).getReader();
        let pending = '';
        response.on('close', () => void reader?.cancel().catch(() => undefined));
        for (;;) {
          const read = await reader?.read().catch(() => undefined);
          if (!read || read.done) break;
          pending += read.value;
          const events = pending.split('\n\n');
          pending = events.pop() ?? '';
          for (const event of events) {
            const data = event
              .split('\n')
              .flatMap((line) => (line.startsWith('data: ') ? [line.slice(6)] : []))
              .join('\n');
            if (data !== '') response.write(`${data}\n`);
          }
        }
        response.end();
      });
    });
  });
  t.teardown(() => server.closeAllConnections());
  const port = await listenOnLoopback(t, server);
  return { url: `http://127.0.0.1:${port}/mcp`, notify: handler.notify, listens: () => listens };
}

t.test('list changes from a child whose listen stream is JSON lines reach a caller listening', async (t) => {
  const child = await jsonLinesChild(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { lines: { type: 'http', url: child.url } } } });
  const client = await connectClient(t, `${url}/lines/mcp`, '2026-07-28');
  let heard = 0;
  client.setNotificationHandler('notifications/tools/list_changed', async () => void (heard += 1));
  const subscription = await client.listen({ toolsListChanged: true });
  t.teardown(() => subscription.close());
  await waitFor('the hub to listen to the child', () => child.listens() > 0);
  // Announced until heard: the hub's stream may still be opening when the first goes out.
  await waitFor('the change to reach the caller', () => {
    child.notify.toolsChanged();
    return heard > 0;
  });
  t.ok(heard > 0, "the child's tool list change reached the caller's listen stream");
});
