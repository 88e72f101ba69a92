import type { CallToolResult } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import t from 'tap';
import type { PluginHub } from '../../../core/plugin-hub.js';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { runProgram, textOf, type RunAnswer } from './helpers.js';

// A program's tool calls are its caller's calls (issue 53.2): they count against the
// caller's CLIENT_CALLS_PER_MINUTE and CLIENT_MAX_CONCURRENT, as the calls it could make
// itself do, counted here at a real child. A refused call rejects in the program with the
// 429's reason and shows as `limit` in the run's calls.

/** A child that counts its calls: `tick` answers at once, `hold` until it is cancelled, with the most in flight at once. */
const child = { ticks: 0, inFlight: 0, mostInFlight: 0 };
function createCounter(): McpServer {
  const server = new McpServer({ name: 'counter', version: '1.0.0' });
  server.registerTool('tick', { description: 'Counts a call' }, async () => {
    child.ticks += 1;
    return { content: [{ type: 'text', text: String(child.ticks) }] };
  });
  server.registerTool('hold', { description: 'Answers when cancelled' }, async (ctx) => {
    child.inFlight += 1;
    child.mostInFlight = Math.max(child.mostInFlight, child.inFlight);
    await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve));
    child.inFlight -= 1;
    return { content: [{ type: 'text', text: 'released' }] };
  });
  return server;
}

/** A hub with oauth-as and code mode on, the counter as `counter`, and one API token. */
async function limitedHub(t: Parameters<typeof startTestHub>[0], env: Record<string, string>, now?: number) {
  const { url, hub } = await startTestHub(t, {
    setup: (plugins: PluginHub) => void plugins.servers.addInProcess('counter', createCounter),
    ...(now !== undefined && { kernel: (kernel) => void (kernel.now = () => now) }),
    config: { plugins: { 'oauth-as': true, 'map-tools': false, 'code-mode': { maxToolCalls: 100 } } },
    env: { HUB_PASSWORD: 'pw', ...env },
  });
  const { token } = await new ApiTokens(collections(hub.store), hub.settings.baseUrl).mint('programs', 600);
  return connectClient(t, `${url}/hub`, '2026-07-28', { authorization: `Bearer ${token}` });
}

t.test('CLIENT_CALLS_PER_MINUTE counts every tool call a program makes', async (t) => {
  // The counter's clock stands still in the middle of a minute: every call falls in one window, however slow the machine.
  const client = await limitedHub(t, { CLIENT_CALLS_PER_MINUTE: '30' }, Date.UTC(2100, 0, 1, 12, 0, 30));
  child.ticks = 0;
  const program =
    'const seen: string[] = [];\nfor (let i = 0; i < 20; i++) { try { await servers.counter.tick(); seen.push("ok"); } catch (error) { seen.push((error as Error).message); } }\nreturn seen;';
  const refusals: string[] = [];
  const outcomes: string[] = [];
  let runs = 0;
  for (; runs < 3; runs++) {
    let result: CallToolResult;
    try {
      result = await runProgram(client, program);
    } catch (error) {
      t.match((error as Error).message, /Rate limit exceeded/, 'once the minute is spent, run_code itself is refused');
      break;
    }
    const answer = result.structuredContent as RunAnswer;
    refusals.push(...(answer.value as string[]).filter((seen) => seen !== 'ok'));
    outcomes.push(...answer.calls.map((call) => call.outcome));
  }
  t.ok(runs >= 2, 'two programs ran');
  t.ok(child.ticks <= 30, `no more than 30 calls reached the child in the minute (${child.ticks})`);
  t.ok(child.ticks >= 20, 'the first program made its calls');
  t.ok(refusals.length > 0, 'calls past the limit were refused in the program');
  t.same(
    refusals.filter((refusal) => !/^counter\.tick was refused: Rate limit exceeded: this client may make 30 MCP requests a minute; retry in \d+ s$/.test(refusal)),
    [],
    'each refusal gives the 429 reason',
  );
  t.equal(outcomes.filter((outcome) => outcome === 'limit').length, refusals.length, "each refusal is a `limit` in the run's calls");
  t.equal(outcomes.filter((outcome) => outcome === 'ok').length, child.ticks, 'every other call reached the child');
});

t.test("CLIENT_MAX_CONCURRENT holds a program to its caller's calls in flight", async (t) => {
  const client = await limitedHub(t, { CLIENT_MAX_CONCURRENT: '5' });
  child.mostInFlight = 0;
  const result = await runProgram(client, 'try {\n  await Promise.all(Array.from({ length: 40 }, () => servers.counter.hold()));\n} catch (error) {\n  return (error as Error).message;\n}');
  const answer = result.structuredContent as RunAnswer;
  t.equal(answer.value, 'counter.hold was refused: Too many concurrent requests: this client may have 5 in flight', "the refusal rejects in the program with the 429's reason");
  t.equal(answer.calls.length, 40, 'the program made its 40 calls');
  const limited = answer.calls.filter((call) => call.outcome === 'limit').length;
  // run_code's own request holds one of the five slots while the program runs.
  t.ok(limited >= 36, `at least 36 calls were refused (${limited})`);
  t.ok(child.mostInFlight <= 5, `never more than 5 in flight at the child (${child.mostInFlight})`);
  const after = await runProgram(client, 'await servers.counter.tick(); return 1;');
  t.equal((after.structuredContent as RunAnswer | undefined)?.value, 1, `the slots were given back (${textOf(after)})`);
});
