import { AsyncLocalStorage } from 'node:async_hooks';
import t from 'tap';
import { createKitchenSink } from '../fixtures/servers/kitchen-sink.js';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { startTestHub } from '../helpers/hub.js';

// Issue 43, item 1: a plugin's observer, hook or registry callback that throws is isolated:
// logged once per plugin and site, counted, and the hub and the call go on.

function boom(site: string): never {
  throw new Error(`the plugin broke at ${site}`);
}

function faultLines(logs: string[], site: string): unknown[] {
  return logs.map((line) => JSON.parse(line) as { site?: string; plugin?: string }).filter((record) => record.site === site && record.plugin === 'app');
}

t.test('observers that throw on every call: the calls answer, one log line per site, every failure counted', async (t) => {
  const logs: string[] = [];
  const heard: string[] = [];
  const { url, hub } = await startTestHub(t, {
    logs,
    setup: (plugin) => {
      plugin.servers.addInProcess('sink', createKitchenSink);
      plugin.observe.toolCallStart.subscribe(() => boom('toolCallStart'));
      plugin.observe.toolCallSent.subscribe(() => boom('toolCallSent'));
      plugin.observe.toolCallEnd.subscribe(() => boom('toolCallEnd'));
      plugin.observe.mcpRequestEnd.subscribe(() => boom('mcpRequestEnd'));
      plugin.observe.mcpRequest.bindStore(new AsyncLocalStorage<string | undefined>(), () => boom('bindStore'));
      plugin.observe.pluginFault.subscribe((event) => heard.push(event.site));
      plugin.servers.observe({ transition: () => boom('transition'), start: () => boom('start') });
    },
  });
  let calls = 0;
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/sink/mcp`, revision);
    for (let round = 0; round < 3; round++) {
      const result = await client.callTool({ name: 'wrapped_colours', arguments: {} });
      calls += 1;
      t.same(result.structuredContent, { result: ['blue'] }, `${revision}: call ${round + 1} answered`);
    }
  }
  const counts = new Map(hub.faults.list().map((fault) => [fault.site, fault]));
  for (const site of ['observe.toolCallStart', 'observe.toolCallSent', 'observe.toolCallEnd']) {
    t.equal(counts.get(site)?.count, calls, `${site}: every failure counted`);
    t.equal(counts.get(site)?.plugin, 'app', `${site}: in the plugin's name`);
    t.equal(faultLines(logs, site).length, 1, `${site}: logged once`);
  }
  for (const site of ['observe.mcpRequestEnd', 'observe.mcpRequest.bindStore', 'servers.observe.transition', 'servers.observe.start']) {
    t.ok((counts.get(site)?.count ?? 0) >= 1, `${site}: counted`);
    t.equal(faultLines(logs, site).length, 1, `${site}: logged once`);
  }
  t.equal(heard.filter((site) => site === 'observe.toolCallStart').length, calls, 'the pluginFault channel hears every failure');
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.match(metrics, `hub_plugin_failures_total{plugin="app",site="observe.toolCallStart"} ${calls}`, 'and /metrics counts them');
});

t.test('a fault observer that throws is counted and does not loop', async (t) => {
  const { url, hub } = await startTestHub(t, {
    setup: (plugin) => {
      plugin.servers.addInProcess('sink', createKitchenSink);
      plugin.observe.toolCallEnd.subscribe(() => boom('toolCallEnd'));
      plugin.observe.pluginFault.subscribe(() => boom('pluginFault'));
    },
  });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  t.same((await client.callTool({ name: 'wrapped_colours', arguments: {} })).structuredContent, { result: ['blue'] });
  const counts = new Map(hub.faults.list().map((fault) => [fault.site, fault.count]));
  t.equal(counts.get('observe.toolCallEnd'), 1);
  t.equal(counts.get('observe.pluginFault'), 1, 'the failing fault observer counted once, not again for itself');
});

t.test('a tool gate that throws withholds the tool with a reason, and the server goes on', async (t) => {
  const { url, hub } = await startTestHub(t, {
    setup: (plugin) => {
      plugin.servers.addInProcess('sink', createKitchenSink);
      plugin.toolGates.add('broken', {
        withheld: (_server, tool) => (tool.name === 'list_colours' ? boom('withheld') : undefined),
        review: () => boom('review'),
        refresh: async () => boom('refresh'),
      });
    },
  });
  const client = await connectClient(t, `${url}/sink/mcp`, '2025-11-25');
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  t.notOk(tools.includes('list_colours'), 'the tool the gate failed on is withheld');
  t.ok(tools.includes('wrapped_colours'), 'the others are offered');
  const result = await client.callTool({ name: 'wrapped_colours', arguments: {} });
  t.same(result.structuredContent, { result: ['blue'] }, 'a call goes on');
  t.ok(
    hub.faults.list().some((fault) => fault.site === 'toolGates.withheld' && fault.plugin === 'app'),
    'counted in the plugin’s name',
  );
});

// Issue 54, item 1: an `async` callback that fails (a rejected promise, not a throw) is
// isolated the same way, at every site a plugin hands the kernel code.

async function reject(site: string): Promise<never> {
  await Promise.resolve();
  throw new Error(`the plugin's promise failed at ${site}`);
}

t.test('async observers, hooks and callbacks that reject on every call: the calls answer, each site logged once and counted', async (t) => {
  const logs: string[] = [];
  const { url, hub } = await startTestHub(t, {
    logs,
    setup: (plugin) => {
      plugin.servers.addInProcess('sink', createKitchenSink);
      plugin.observe.toolCallStart.subscribe(() => reject('toolCallStart'));
      plugin.observe.toolCallSent.subscribe(() => reject('toolCallSent'));
      plugin.observe.toolCallEnd.subscribe(() => reject('toolCallEnd'));
      plugin.observe.mcpRequest.subscribe(() => reject('mcpRequest'));
      plugin.observe.mcpRequestEnd.subscribe(() => reject('mcpRequestEnd'));
      plugin.observe.httpRequest.subscribe(() => reject('httpRequest'));
      plugin.observe.pluginFault.subscribe(() => reject('pluginFault'));
      plugin.servers.observe({ transition: () => reject('transition'), start: () => reject('start'), toolsChanged: () => reject('toolsChanged') });
      plugin.toolGates.add('rejecting', { withheld: () => undefined, review: () => reject('review'), refresh: () => reject('refresh') });
      plugin.interceptors.add('rejecting', { order: 500, after: () => reject('interceptor') });
    },
  });
  let calls = 0;
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/sink/mcp`, revision);
    for (let round = 0; round < 3; round++) {
      const result = await client.callTool({ name: 'wrapped_colours', arguments: {} });
      calls += 1;
      t.equal(result.isError, true, `${revision}: call ${round + 1} answered, failed closed by the rejecting interceptor`);
      t.match((result.content as { text: string }[])[0]?.text, /interceptor "rejecting" of plugin "app" failed/);
    }
  }
  // The rejections are recorded once they settle: wait on the counts, not on time.
  const countOf = (site: string) => hub.faults.list().find((fault) => fault.site === site)?.count ?? 0;
  while (countOf('observe.toolCallEnd') < calls || countOf('observe.mcpRequestEnd') < calls) await new Promise((resolve) => setImmediate(resolve));
  for (const site of ['observe.toolCallStart', 'observe.toolCallSent', 'observe.toolCallEnd']) {
    t.equal(countOf(site), calls, `${site}: every rejection counted`);
    t.equal(faultLines(logs, site).length, 1, `${site}: logged once`);
  }
  for (const site of ['observe.mcpRequest', 'observe.mcpRequestEnd', 'observe.httpRequest', 'observe.pluginFault', 'servers.observe.transition', 'servers.observe.start', 'toolGates.review']) {
    t.ok(countOf(site) >= 1, `${site}: counted`);
    t.equal(faultLines(logs, site).length, 1, `${site}: logged once`);
  }
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.match(metrics, `hub_plugin_failures_total{plugin="app",site="observe.toolCallStart"} ${calls}`, 'and /metrics counts them');
});
