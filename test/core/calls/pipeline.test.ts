import { fromJsonSchema, McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import Fastify from 'fastify';
import t, { type Test } from 'tap';
import { runToolCall } from '../../../core/calls/pipeline.js';
import { toolCallOf, type ToolCall } from '../../../core/calls/tool-call.js';
import type { Hub } from '../../../core/hub.js';
import { hub as hubPlugin, onKernel } from '../../../core/kernel.js';
import type { CallerRequest } from '../../../core/calls/caller-request.js';
import { servedRevisions, type ServedRevision } from '../../../core/revisions/served-revision.js';
import type { PluginHub } from '../../../core/plugin-hub.js';
import { isUnknownTarget } from '../../../core/plugin/meta-tool.js';

/*
 * Issue 58: the call pipeline (`runToolCall`) run without HTTP: a real hub kernel (the
 * Fastify plugin, never listening), a real in-process server, a real interceptor, calls
 * made as a road makes them (`toolCallOf`). The outcome is the pipeline's, observed or not
 * (nobody observes here: no observability plugin), and `servers.callTool` tells an
 * unknown server or tool by type.
 *
 * Road x stage covered: `server` and `hub` roads x resolve (unknown, filtered), interceptors
 * before (refusing), carry (a result, a tool error), present; `servers.callTool` x unknown
 * server (by name, by a stale view) and unknown tool.
 */

const noArguments = fromJsonSchema<Record<string, never>>({ type: 'object', properties: {} });

/** What the in-process server saw: a call the pipeline refused never reaches it. */
const reached: string[] = [];

function echoServer(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Answers', inputSchema: noArguments }, async () => {
    reached.push('echo');
    return { content: [{ type: 'text', text: 'echoed' }] };
  });
  server.registerTool('fails', { description: 'A tool error', inputSchema: noArguments }, async () => {
    reached.push('fails');
    return { content: [{ type: 'text', text: 'it failed' }], isError: true };
  });
  server.registerTool('guarded', { description: 'Refused by the interceptor', inputSchema: noArguments }, async () => {
    reached.push('guarded');
    return { content: [{ type: 'text', text: 'should not run' }] };
  });
  server.registerTool('filtered', { description: 'Kept out by denyTools', inputSchema: noArguments }, async () => {
    reached.push('filtered');
    return { content: [{ type: 'text', text: 'should not run' }] };
  });
  return server;
}

async function kernel(t: Test): Promise<{ hub: Hub; plugin: PluginHub; revision: ServedRevision }> {
  const app = Fastify({ logger: false });
  let hub: Hub | undefined;
  let plugin: PluginHub | undefined;
  await app.register(hubPlugin, {
    [onKernel]: (created: Hub) => void (hub = created),
    setup: (created: PluginHub) => {
      plugin = created;
      created.servers.addInProcess('echo', echoServer, { denyTools: ['filtered'] });
      created.interceptors.add('refuses-guarded', { order: 10, before: (call) => (call.tool.name === 'guarded' ? { refuse: 'not this one' } : undefined) });
    },
    config: { plugins: { 'oauth-as': false, 'map-tools': false, observability: false, console: false } },
    env: {},
  });
  await app.ready();
  t.teardown(() => app.close());
  if (!hub || !plugin) throw new Error('the hub plugin did not hand over the kernel');
  const revision = servedRevisions(hub.revisions.values()).at(-1);
  if (!revision) throw new Error('no revision is served');
  return { hub, plugin, revision };
}

function callerRequest(): CallerRequest {
  return { meta: undefined, envelope: {}, signal: new AbortController().signal, notify: async () => undefined, answers: undefined, clientId: 'pipeline-test', access: undefined, servers: undefined };
}

function callOf(hub: Hub, revision: ServedRevision, road: 'server' | 'hub', name: string): ToolCall {
  const server = hub.children.get('echo');
  if (!server) throw new Error('no echo server');
  return toolCallOf({ revision, caller: callerRequest(), server, road, params: { name, arguments: {} } });
}

function textOf(result: unknown): string {
  return (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

t.test('runToolCall sets every outcome itself, with nobody observing', async (t) => {
  const { hub, revision } = await kernel(t);
  for (const road of ['server', 'hub'] as const) {
    reached.length = 0;
    const ok = callOf(hub, revision, road, 'echo');
    t.equal(textOf(await runToolCall(hub, ok)), 'echoed', `${road}: the result, through carry and present`);
    t.equal(ok.outcome, 'ok', `${road}: ok`);
    t.equal(ok.tool?.name, 'echo', `${road}: the resolve stage set the tool`);
    t.equal(ok.event, undefined, `${road}: nobody observed the call`);

    const failed = callOf(hub, revision, road, 'fails');
    const failure = (await runToolCall(hub, failed)) as CallToolResult;
    t.equal(failure.isError, true, `${road}: the tool's own error is its result`);
    t.equal(failed.outcome, 'tool_error', `${road}: tool_error`);

    const refused = callOf(hub, revision, road, 'guarded');
    const refusal = (await runToolCall(hub, refused)) as CallToolResult;
    t.equal(refusal.isError, true, `${road}: the interceptor's refusal is the answer`);
    t.match(textOf(refusal), /not this one/, `${road}: with the interceptor's reason`);
    t.equal(refused.outcome, 'refused', `${road}: refused`);

    const unknown = callOf(hub, revision, road, 'no_such_tool');
    const answer = await runToolCall(hub, unknown).catch((error: unknown) => error);
    t.equal(unknown.outcome, 'unknown_tool', `${road}: unknown_tool, whoever answers it`);
    if (road === 'hub') t.equal(answer, undefined, 'hub: an unknown tool is no result');

    const filtered = callOf(hub, revision, road, 'filtered');
    t.equal(await runToolCall(hub, filtered), undefined, `${road}: a filtered tool is unknown`);
    t.equal(filtered.outcome, 'denied', `${road}: denied, before anything reaches the server`);

    t.same(reached, ['echo', 'fails'], `${road}: only the calls the pipeline let through reached the server`);
  }
});

t.test('servers.callTool answers an unknown server or tool by type', async (t) => {
  const { plugin, revision } = await kernel(t);
  const context = { revision, request: callerRequest() };
  const view = plugin.servers.get('echo');
  if (!view) throw new Error('no echo view');

  const byName = await plugin.servers.callTool('echo', { name: 'echo', arguments: {} }, context);
  t.notOk(isUnknownTarget(byName), 'a server by name is called');
  t.equal(textOf(byName), 'echoed', 'and answers');

  const noServer = await plugin.servers.callTool('nowhere', { name: 'echo', arguments: {} }, context);
  t.ok(isUnknownTarget(noServer), 'an unknown server is told by type');
  t.same(noServer, { unknown: 'server', server: 'nowhere', tool: 'echo', message: 'Unknown server: "nowhere".' }, 'worded by core');

  const noTool = await plugin.servers.callTool(view, { name: 'no_such_tool', arguments: {} }, context);
  t.same(noTool, { unknown: 'tool', server: 'echo', tool: 'no_such_tool', message: 'Unknown tool: "no_such_tool" on server "echo".' }, 'an unknown tool is told by type, worded by core');

  const filtered = await plugin.servers.callTool(view, { name: 'filtered', arguments: {} }, context);
  t.same(isUnknownTarget(filtered) && filtered.unknown, 'tool', 'a filtered tool is unknown alike');

  const result = await plugin.servers.callTool(view, { name: 'fails', arguments: {} }, context);
  t.notOk(isUnknownTarget(result), "a tool's own error is a result, not an unknown target");
});
