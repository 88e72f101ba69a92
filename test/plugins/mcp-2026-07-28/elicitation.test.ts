import type { PluginHub } from '../../../core/plugin-hub.js';
import type { Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { startCarelessAsker } from '../../fixtures/servers/careless-asker.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient, type Revision } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

const setup = (hub: PluginHub) => void hub.servers.addInProcess('sink', createKitchenSink);

/** A client that can be asked: it answers every form with `answer` and records the questions. */
async function askableClient(
  t: { teardown(fn: () => unknown): void },
  url: string,
  revision: Revision,
  answer: Record<string, string | number | boolean>,
): Promise<{ client: Client; questions: string[] }> {
  const questions: string[] = [];
  const client = await connectClient(t, url, revision, {}, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    questions.push(request.params.message);
    return { action: 'accept', content: answer };
  });
  return { client, questions };
}

const text = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text;

t.test('on 2026-07-28 a child question comes back as the result and the answer goes in on the retry', async (t) => {
  const { url } = await startTestHub(t, { setup });
  const { client, questions } = await askableClient(t, `${url}/sink/mcp`, '2026-07-28', { confirm: true });

  const asked = await client.callTool({ name: 'confirm_deploy', arguments: { env: 'prod' } }, { allowInputRequired: true });
  t.match(
    asked,
    { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Deploy to prod?' } } } },
    'the question is the call result: nothing held open',
  );
  t.equal((asked as { requestState?: string }).requestState, 'asked-about-prod', "the child's state is passed through untouched");

  const done = await client.callTool({ name: 'confirm_deploy', arguments: { env: 'prod' } });
  t.same(questions, ['Deploy to prod?'], "the SDK client answered the child's question");
  t.equal(text(done), 'Deployed to prod (state asked-about-prod)', 'the retry carried the answer and the state to the child');
});

t.test('the same round trip through /hub call_tool', async (t) => {
  const { url } = await startTestHub(t, { setup });
  const { client, questions } = await askableClient(t, `${url}/hub`, '2026-07-28', { confirm: true });
  const done = await client.callTool({ name: 'call_tool', arguments: { server: 'sink', tool: 'confirm_deploy', arguments: { env: 'staging' } } });
  t.same(questions, ['Deploy to staging?']);
  t.equal(text(done), 'Deployed to staging (state asked-about-staging)');
});

t.test('a question is not forwarded when any condition fails, and the child takes its fallback', async (t) => {
  const cannotAsk = /^Cannot ask here: call again with confirmed=true/;

  t.test('a caller on 2025-11-25', async (t) => {
    const { url } = await startTestHub(t, { setup });
    for (const endpoint of ['sink/mcp', 'hub']) {
      const { client, questions } = await askableClient(t, `${url}/${endpoint}`, '2025-11-25', { confirm: true });
      const result =
        endpoint === 'hub'
          ? await client.callTool({ name: 'call_tool', arguments: { server: 'sink', tool: 'confirm_deploy', arguments: { env: 'prod' } } })
          : await client.callTool({ name: 'confirm_deploy', arguments: { env: 'prod' } });
      t.match(text(result), cannotAsk, `${endpoint}: fallback`);
      t.same(questions, [], `${endpoint}: nobody was asked`);
    }
  });

  t.test('a request that did not declare elicitation', async (t) => {
    const { url } = await startTestHub(t, { setup });
    const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
    t.match(text(await client.callTool({ name: 'confirm_deploy', arguments: { env: 'prod' } })), cannotAsk);
    const confirmed = await client.callTool({ name: 'confirm_deploy', arguments: { env: 'prod', confirmed: true } });
    t.equal(text(confirmed), 'Deployed to prod (confirmed by argument)', "the child's own fallback completes");
  });

  t.test('the operator switched elicitation off', async (t) => {
    const { url } = await startTestHub(t, { setup, config: { plugins: { 'mcp-2026-07-28': { elicitation: false } } } });
    const { client, questions } = await askableClient(t, `${url}/sink/mcp`, '2026-07-28', { confirm: true });
    t.match(text(await client.callTool({ name: 'confirm_deploy', arguments: { env: 'prod' } })), cannotAsk);
    t.same(questions, []);
  });
});

t.test('embedded sampling and roots requests are dropped, named in the log once, and the elicitation goes on', async (t) => {
  const childUrl = await startCarelessAsker(t);
  const logs: string[] = [];
  const { url } = await startTestHub(t, { logs, config: { mcpServers: { careless: { type: 'http', url: childUrl } } } });
  const client = await connectClient(t, `${url}/careless/mcp`, '2026-07-28', {}, { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } });

  for (let call = 0; call < 2; call++) {
    const asked = await client.callTool({ name: 'ask_everything', arguments: {} }, { allowInputRequired: true });
    t.same(Object.keys((asked as { inputRequests?: object }).inputRequests ?? {}), ['ok'], 'only the elicitation reaches the caller');
  }
  const dropped = logs.map((line) => JSON.parse(line) as { msg: string; reason?: string; server?: string }).filter((line) => line.msg.startsWith('dropped a question'));
  t.same(
    dropped.map((line) => [line.server, line.reason]),
    [
      ['careless', 'embedded sampling/createMessage is not carried by the hub'],
      ['careless', 'embedded roots/list is not carried by the hub'],
    ],
    'each reason is logged once per client and server, not once per call',
  );

  const answered = await client
    .callTool({ name: 'ask_everything', arguments: {} }, { allowInputRequired: true })
    .then(() => client.callTool({ name: 'ask_everything', arguments: {}, inputResponses: { ok: { action: 'accept', content: { ok: true } } } } as never));
  t.equal(text(answered), 'answers: {"ok":{"action":"accept","content":{"ok":true}}}', 'the answer reached the child');
});
