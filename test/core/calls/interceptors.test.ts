import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import t from 'tap';
import type { ToolCallInterceptor } from '../../../core/plugin/interceptor.js';
import type { ToolCallOutcome } from '../../../core/plugin/observe.js';
import { fixture, tempDir } from '../children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { sample } from '../../plugins/observability/helpers.js';
import { textOf, viaHub } from '../../plugins/guardrails/helpers.js';
import { readFile } from 'node:fs/promises';

/** What the test's interceptors do on the next call; each step of a test sets it. */
interface Behaviour {
  before?: 'refuse' | 'throw' | 'hang' | 'replace';
  after?: 'throw' | 'break-schema' | 'replace';
}

/*
 * The interceptor role through the embedding app's hub (`hub.interceptors`), exactly as a
 * plugin registers one, against a real stdio child on /<name>/mcp (plain and SDK roads)
 * and /hub's call_tool: declared order, refusal, replaced arguments and results, a throw,
 * an overrun, and a result that breaks the tool's output schema.
 */
t.test('interceptors act on every call in declared order, and fail closed', async (t) => {
  const folder = await tempDir(t);
  const calls = join(folder, 'calls');
  const behaviour: Behaviour = {};
  const order: string[] = [];
  const outcomes: ToolCallOutcome[] = [];
  const logs: string[] = [];
  const recorder = (name: string, position: number): ToolCallInterceptor => ({
    order: position,
    before(call) {
      order.push(`${name} before`);
      return { arguments: { ...call.arguments, path: [...((call.arguments.path as string[] | undefined) ?? []), name] } };
    },
    after(_call, result) {
      order.push(`${name} after`);
      return { result: { ...result, content: [...result.content, { type: 'text', text: `seen by ${name}` }] } };
    },
  });
  const { url } = await startTestHub(t, {
    config: { mcpServers: { guarded: { command: process.execPath, args: [fixture('guarded')], env: { FIXTURE_CALLS: calls } } } },
    logs,
    setup(hub) {
      // Registered out of order: the declared `order` decides, not the registration.
      hub.interceptors.add('second', recorder('second', 20));
      hub.interceptors.add('first', recorder('first', 10));
      hub.interceptors.add('tester', {
        order: 15,
        timeBudgetMs: 1_000,
        before() {
          if (behaviour.before === 'refuse') return { refuse: 'the test says no' };
          if (behaviour.before === 'throw') throw new Error('the before hook broke');
          if (behaviour.before === 'hang') return new Promise<undefined>(() => undefined);
          return undefined;
        },
        after(_call, result) {
          if (behaviour.after === 'throw') throw new Error('the after hook broke');
          if (behaviour.after === 'break-schema') return { result: { ...result, structuredContent: { code: 'not upper case' } } };
          return undefined;
        },
      });
      hub.observe.toolCallEnd.subscribe((event) => outcomes.push(event.outcome ?? 'ok'));
    },
  });
  const heard = async () => (await readFile(calls, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/guarded/mcp`, revision);
    const hub = viaHub(await connectClient(t, `${url}/hub`, revision), 'guarded');
    const roads: Record<string, (tool: string, args: Record<string, unknown>) => Promise<CallToolResult>> = {
      plain: async (tool, args) => await client.callTool({ name: tool, arguments: args }),
      sdk: async (tool, args) => await client.callTool({ name: tool, arguments: args }, { onprogress: () => undefined }),
      hub,
    };
    for (const [road, call] of Object.entries(roads)) {
      const on = `${road} on ${revision}`;
      order.length = 0;
      const echoed = await call('echo_args', { path: ['caller'] });
      t.same(order, ['first before', 'second before', 'second after', 'first after'], `${on}: before in ascending order, after in descending`);
      t.same(
        JSON.parse(textOf({ ...echoed, content: echoed.content.slice(0, 1) })),
        { path: ['caller', 'first', 'second'] },
        `${on}: each saw the arguments the one before it left, and the child got the last`,
      );
      t.same(
        echoed.content.slice(1),
        [
          { type: 'text', text: 'seen by second' },
          { type: 'text', text: 'seen by first' },
        ],
        `${on}: each replaced the result the one nearer the child left`,
      );

      const steps: Array<[Behaviour, RegExp, ToolCallOutcome | undefined, string]> = [
        [{ before: 'refuse' }, /^Tool call refused by plugin "app" \(tester\): the test says no$/, 'refused', 'a refusal names the plugin and its reason'],
        [{ before: 'throw' }, /interceptor "tester" of plugin "app" failed on the call's arguments, so the call was not carried/, 'refused', 'a throw before the call fails it closed'],
        [{ before: 'hang' }, /interceptor "tester" of plugin "app" failed on the call's arguments/, 'refused', 'an overrun before the call fails it closed'],
      ];
      for (const [set, text, outcome, what] of steps) {
        Object.assign(behaviour, { before: undefined, after: undefined }, set);
        const before = await heard();
        outcomes.length = 0;
        const result = await call('echo_args', {});
        t.equal(result.isError, true, `${on}: ${what}: a tool error`);
        t.match(textOf(result), text, `${on}: ${what}`);
        t.equal(await heard(), before, `${on}: ${what}: the child never heard the call`);
        t.same(outcomes, [outcome], `${on}: ${what}: observers hear the outcome`);
      }
      Object.assign(behaviour, { before: undefined, after: 'throw' });
      const thrown = await call('echo_args', {});
      t.match(textOf(thrown), /failed on the call's result, so the result was withheld/, `${on}: a throw after the call withholds the result`);

      Object.assign(behaviour, { before: undefined, after: 'break-schema' });
      const broken = await call('typed', {});
      t.equal(broken.isError, true, `${on}: a result that no longer matches the output schema is a tool error`);
      t.match(textOf(broken), /plugin "app" replaced the result with one that does not match the tool's output schema/, `${on}: naming the plugin`);
      t.equal(broken.structuredContent, undefined, `${on}: never an invalid result`);
      Object.assign(behaviour, { before: undefined, after: 'replace' });
      const typed = await call('typed', {});
      t.notOk(typed.isError, `${on}: a replaced result that still matches the schema goes through`);
    }
  }
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.equal(sample(metrics, 'hub_interceptor_failures_total', { interceptor: 'tester', failure: 'threw' }), 12, 'throws are counted');
  t.equal(sample(metrics, 'hub_interceptor_failures_total', { interceptor: 'tester', failure: 'overran' }), 6, 'overruns are counted');
  const failures = logs.map((line) => JSON.parse(line) as { msg?: string; interceptor?: string; err?: string }).filter((line) => line.msg?.includes('interceptor failed'));
  t.equal(failures.length, 18, 'every failure is logged');
  t.match(failures[0], { interceptor: 'tester', err: 'the before hook broke' }, 'naming the interceptor and why');
});
