import { ProtocolError, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import t, { type Test } from 'tap';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

/*
 * Issue 37: which tools a caller may see is decided in one place (core/calls/visibility.ts),
 * which listing and calling both ask. For every combination of the allow/deny filter, a
 * tool gate, `hub: false` and the caller's reach, a tool is listed exactly when it can be
 * called: on `/<name>/mcp` (tools/list against tools/call) and on `/hub` (list_tools,
 * get_tool_schema and search_tools against call_tool), on both revisions. Real v2 SDK
 * clients over loopback HTTP, a real in-process server, a real tool gate plugin.
 */

const REASON = 'withheld by the test gate';
/** The kitchen sink's tools. `hang` never answers: the filter keeps it out everywhere, so its calls are refused before reaching it. */
const TOOLS = ['list_colours', 'wrapped_colours', 'slow_with_progress', 'hang', 'confirm_deploy', 'hidden_by_filter'];
const GATED = new Set(['wrapped_colours', 'confirm_deploy', 'slow_with_progress']);

/** What callers may get, per server and endpoint: the expected decision, written out. */
const EXPECTED = {
  // allowTools keeps four, denyTools takes two of them, the gate withholds three (one on each side of the filter).
  sink: ['list_colours'],
  // hub: false, no gate on it: listed and callable on its own endpoint only.
  solo: ['hidden_by_filter', 'list_colours', 'wrapped_colours'],
};

async function visibilityHub(t: Test) {
  return startTestHub(t, {
    config: { plugins: { 'map-tools': false, 'tool-search': true } },
    setup: (plugin) => {
      plugin.servers.addInProcess('sink', createKitchenSink, {
        allowTools: ['list_colours', 'wrapped_colours', 'confirm_deploy', 'hidden_by_filter'],
        denyTools: ['confirm_deploy', 'hidden_by_filter'],
      });
      plugin.servers.addInProcess('solo', createKitchenSink, { hub: false, denyTools: ['hang', 'confirm_deploy', 'slow_with_progress'] });
      plugin.toolGates.add('test-gate', { withheld: (server, tool) => (server.name === 'sink' && GATED.has(tool.name) ? REASON : undefined) });
      // The caller's reach, as an authenticator states it: `x-servers` lists the servers a caller of /hub reaches.
      plugin.authenticator.provide({
        authenticate: async (request) => {
          const servers = request.headers['x-servers'];
          return { token: 'test', clientId: 'visibility-test', scopes: [], ...(typeof servers === 'string' && { extra: { servers: servers.split(',') } }) };
        },
      });
    },
  });
}

/** Whether a call on a server's own endpoint reached the tool: not refused as unknown, nor withheld. */
async function callableOwn(client: Client, name: string): Promise<boolean> {
  try {
    const result = await client.callTool({ name, arguments: {} });
    return !(result.isError === true && textOf(result) === REASON);
  } catch (error) {
    if (ProtocolError.isInstance(error) && /Unknown tool/.test(error.message)) return false;
    throw error;
  }
}

/** Whether `/hub`'s call_tool reached the tool: not refused for the server (unknown, hub: false) or the tool (unknown, withheld). */
async function callableOnHub(client: Client, server: string, name: string): Promise<boolean> {
  const result = await client.callTool({ name: 'call_tool', arguments: { server, tool: name, arguments: {} } });
  if (result.isError !== true) return true;
  const text = textOf(result);
  return !(text === REASON || text.startsWith('Unknown tool') || text.startsWith('Unknown server') || text.includes('(hub: false)'));
}

function textOf(result: CallToolResult): string {
  const [block] = result.content;
  return block?.type === 'text' ? block.text : '';
}

async function listedOnHub(client: Client, server: string): Promise<string[]> {
  const result = await client.callTool({ name: 'list_tools', arguments: { server } });
  if (result.isError === true) return [];
  return (result.structuredContent as { tools: { name: string }[] }).tools.map((tool) => tool.name).sort();
}

async function schemaOnHub(client: Client, server: string, name: string): Promise<boolean> {
  const result = await client.callTool({ name: 'get_tool_schema', arguments: { server, tool: name } });
  return result.isError !== true;
}

async function foundOnHub(client: Client, server: string, name: string): Promise<boolean> {
  const result = await client.callTool({ name: 'search_tools', arguments: { query: name.replaceAll('_', ' '), limit: 25 } });
  const found = (result.structuredContent as { tools?: { server: string; tool: string }[] } | undefined)?.tools ?? [];
  return found.some((tool) => tool.server === server && tool.tool === name);
}

for (const revision of REVISIONS) {
  t.test(`${revision}: a server's own endpoint lists exactly the tools it lets a caller call`, async (t) => {
    const { url } = await visibilityHub(t);
    for (const server of ['sink', 'solo'] as const) {
      const client = await connectClient(t, `${url}/${server}/mcp`, revision);
      const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
      t.same(listed, EXPECTED[server], `${server}: tools/list is the decision`);
      for (const name of TOOLS) {
        t.equal(await callableOwn(client, name), listed.includes(name), `${server}/${name}: callable iff listed`);
      }
    }
  });

  t.test(`${revision}: /hub lists, describes and finds exactly the tools call_tool reaches, within the caller's reach`, async (t) => {
    const { url } = await visibilityHub(t);
    const callers: { who: string; headers: Record<string, string>; sink: string[] }[] = [
      { who: 'an unlimited caller', headers: {}, sink: EXPECTED.sink },
      { who: 'a caller reaching sink', headers: { 'x-servers': 'sink,solo' }, sink: EXPECTED.sink },
      { who: 'a caller reaching only another server', headers: { 'x-servers': 'elsewhere' }, sink: [] },
    ];
    for (const caller of callers) {
      const client = await connectClient(t, `${url}/hub`, revision, caller.headers);
      for (const server of ['sink', 'solo'] as const) {
        const expected = server === 'sink' ? caller.sink : [];
        const listed = await listedOnHub(client, server);
        t.same(listed, expected, `${caller.who}, ${server}: list_tools is the decision`);
        for (const name of TOOLS) {
          const offered = listed.includes(name);
          t.equal(await schemaOnHub(client, server, name), offered, `${caller.who}, ${server}/${name}: get_tool_schema iff listed`);
          t.equal(await foundOnHub(client, server, name), offered, `${caller.who}, ${server}/${name}: search_tools iff listed`);
          t.equal(await callableOnHub(client, server, name), offered, `${caller.who}, ${server}/${name}: call_tool iff listed`);
        }
      }
    }
  });
}
