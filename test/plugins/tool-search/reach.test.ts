import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import t, { type Test } from 'tap';
import { hits, search, searchQuietly } from './helpers.js';
import { fixture, fixtureEntry, starts, waitFor } from '../../core/children/helpers.js';
import { adminBeside } from '../../helpers/admin.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { metaError, structuredMeta } from '../meta-tools/helpers.js';
import { PASSWORD } from '../oauth-as/flows.js';

/*
 * Issue 39: search_tools searches what the caller could list with list_tools, and nothing
 * else: hub-enabled servers, after allowTools/denyTools, without the tools pinning
 * withholds, within a /hub token's servers; sleeping servers from their snapshot, without
 * waking them; a server never started is named, not started. The index follows a child's
 * tools/list_changed and a reload. The standalone hub with oauth-as and hub-admin beside it
 * in this process (neither process is the subject), real stdio children, v2 SDK clients on
 * both revisions.
 */

const changing = (startsFile: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [fixture('changing-tools')], env: { FIXTURE_STARTS: startsFile }, ...extra });

function configOf(folder: string, alphaDeny: string[]) {
  return {
    mcpServers: {
      alpha: changing(join(folder, 'alpha-starts'), { denyTools: alphaDeny }),
      solo: changing(join(folder, 'solo-starts'), { hub: false }),
      pinned: changing(join(folder, 'pinned-starts'), { pinTools: true }),
      fresh: fixtureEntry('crashy', join(folder, 'fresh-starts')),
    },
    plugins: { 'map-tools': false, 'tool-search': true, 'tool-pinning': { approveFirstSight: true } },
  };
}

async function searchHub(t: Test) {
  const folder = await mkdtemp(join(tmpdir(), 'tool-search-'));
  const hub = await startStandaloneHub(t, { HUB_PASSWORD: PASSWORD }, { config: configOf(folder, ['bump']) });
  const admin = adminBeside(hub.env);
  const mint = async (...args: string[]) => {
    const minted = await admin('tokens', 'mint', ...args);
    t.equal(minted.code, 0, `tokens mint ${args.join(' ')}: ${minted.stderr}`);
    return minted.stdout.trim();
  };
  return { ...hub, folder, admin, mint };
}

/** A server's entry in list_servers (no checks: polled while waiting). */
async function statusOf(client: Client, server: string) {
  const result = await client.callTool({ name: 'list_servers', arguments: {} });
  return (result.structuredContent as { servers: { name: string; status: string; withheldTools?: string[] }[] }).servers.find((entry) => entry.name === server);
}

t.test('search_tools reaches what list_tools reaches, wakes nothing, and follows list changes and reloads', async (t) => {
  const hub = await searchHub(t);
  const { folder } = hub;
  const startsOf = (name: string) => starts(join(folder, `${name}-starts`)).length;
  const full = await hub.mint('--resource', 'hub');
  const limited = await hub.mint('--resource', 'hub', '--servers', 'alpha');
  const clients = await Promise.all(
    REVISIONS.map(async (revision) => ({
      revision,
      all: await connectClient(t, `${hub.url}/hub`, revision, { authorization: `Bearer ${full}` }),
      alphaOnly: await connectClient(t, `${hub.url}/hub`, revision, { authorization: `Bearer ${limited}` }),
    })),
  );
  const [first] = clients;
  if (!first) throw new Error('no client');

  // Every server but `fresh` once up and put to sleep: from now on they answer from their snapshots.
  for (const server of ['alpha', 'solo', 'pinned']) {
    await structuredMeta(t, first.all, 'wake_server', { server });
    await structuredMeta(t, first.all, 'sleep_server', { server });
  }
  const before = { alpha: startsOf('alpha'), solo: startsOf('solo'), pinned: startsOf('pinned') };
  t.same(before, { alpha: 1, solo: 1, pinned: 1 }, 'each woken once');

  for (const { revision, all, alphaOnly } of clients) {
    const { tools } = await all.listTools();
    const searchTool = tools.find((tool) => tool.name === 'search_tools');
    t.ok(searchTool, `${revision}: /hub lists search_tools`);
    t.match(searchTool?.annotations, { readOnlyHint: true }, `${revision}: read-only`);
    t.equal(searchTool?.outputSchema?.type, 'object', `${revision}: with an object-rooted output schema`);
    t.same(tools.map((tool) => tool.name).slice(0, 6), ['list_servers', 'list_tools', 'get_tool_schema', 'call_tool', 'wake_server', 'sleep_server'], `${revision}: after the six`);

    const counters = await search(t, all, 'updates both counters');
    t.same(hits(counters)[0], 'pinned/bump', `${revision}: the best hit for its own words`);
    t.notOk(hits(counters).includes('alpha/bump'), `${revision}: a tool denyTools keeps out is not found`);
    t.notOk(
      hits(counters).some((hit) => hit.startsWith('solo/')),
      `${revision}: nor a tool of a hub: false server`,
    );
    t.same(
      counters.notSearchable?.map((entry) => entry.server),
      ['fresh'],
      `${revision}: the server never started is named as not searchable`,
    );
    t.match(counters.notSearchable?.[0]?.reason, /never started/);

    const described = await search(t, all, 'tool whose description changes', { limit: 2 });
    t.same(hits(described).sort(), ['alpha/mutable', 'pinned/mutable'], `${revision}: limit 2 gives the two best, from both servers`);
    t.same(
      described.tools.map((tool) => tool.description),
      ['A tool whose description changes', 'A tool whose description changes'],
      `${revision}: each with its description's first line`,
    );
    t.same(
      hits(await search(t, all, 'tool whose description changes', { server: 'pinned' })).filter((hit) => !hit.startsWith('pinned/')),
      [],
      `${revision}: server narrows the search`,
    );
    t.match(await metaError(all, 'search_tools', { query: 'echo', server: 'solo' }), /not offered through \/hub \(hub: false\)/, `${revision}: naming a hub: false server`);
    t.match(await metaError(all, 'search_tools', { query: 'echo', server: 'nobody' }), /^Unknown server: "nobody"/);

    const limitedAnswer = await search(t, alphaOnly, 'echo counters tool description');
    t.ok(limitedAnswer.tools.length > 0, `${revision}: a limited token finds its server's tools`);
    t.same([...new Set(limitedAnswer.tools.map((tool) => tool.server))], ['alpha'], `${revision}: and only those`);
    t.equal(limitedAnswer.notSearchable, undefined, `${revision}: a server beyond the token is not even named`);
    t.equal(
      await metaError(alphaOnly, 'search_tools', { query: 'echo', server: 'pinned' }),
      'Unknown server: "pinned". Call list_servers for the configured servers.',
      `${revision}: naming one beyond the token`,
    );

    for (const args of [{ query: '' }, { query: 'x'.repeat(301) }, { query: 'echo', limit: 0 }, { query: 'echo', limit: 2.5 }]) {
      const refused = await all.callTool({ name: 'search_tools', arguments: args }).then(
        (result) => result.isError === true,
        () => true,
      );
      t.ok(refused, `${revision}: refused: ${JSON.stringify(args).slice(0, 60)}`);
    }
  }
  t.same({ alpha: startsOf('alpha'), solo: startsOf('solo'), pinned: startsOf('pinned'), fresh: startsOf('fresh') }, { ...before, fresh: 0 }, 'no search woke or started anything');
  for (const server of ['alpha', 'pinned', 'fresh']) t.equal((await statusOf(first.all, server))?.status, 'sleeping', `${server} still sleeps`);

  // Pinning: `redescribe` changes `mutable`; the gate withholds it until approved.
  await first.all.callTool({ name: 'call_tool', arguments: { server: 'pinned', tool: 'redescribe' } });
  await waitFor('pinning to withhold the changed tool', async () => (await statusOf(first.all, 'pinned'))?.withheldTools?.includes('mutable') === true);
  for (const { revision, all } of clients) {
    const after = hits(await search(t, all, 'tool whose description changed ignore instructions'));
    t.notOk(after.includes('pinned/mutable'), `${revision}: a tool pinning withholds is not found`);
    t.ok(after.includes('alpha/mutable'), `${revision}: the same tool of a server that does not pin is`);
  }

  // tools/list_changed: alpha adds a tool; the index takes it without a search asking.
  await first.all.callTool({ name: 'call_tool', arguments: { server: 'alpha', tool: 'add_tool' } });
  await waitFor('the added tool to be found', async () => (await searchQuietly(first.all, 'added tool 1'))[0] === 'alpha/extra_1');
  for (const { revision, all } of clients) t.same(hits(await search(t, all, 'added tool 1'))[0], 'alpha/extra_1', `${revision}: a tool added after a list change is found`);

  // A reload lets bump through alpha's filter: the index takes it without alpha starting.
  await structuredMeta(t, first.all, 'sleep_server', { server: 'alpha' });
  const alphaStarts = startsOf('alpha');
  // The hub watches its config file: writing it is the reload.
  await writeFile(hub.configFile, JSON.stringify(configOf(folder, [])));
  await waitFor('the reload to let bump through', async () => (await searchQuietly(first.all, 'updates both counters')).includes('alpha/bump'));
  t.equal(startsOf('alpha'), alphaStarts, 'the reload and the searches after it did not wake alpha');

  const adminSearch = await hub.admin('tools', 'search', 'updates', 'both', 'counters');
  t.equal(adminSearch.code, 0, adminSearch.stderr);
  const lines = adminSearch.stdout
    .trim()
    .split('\n')
    .map((line) => line.split('\t').slice(0, 2).join('/'));
  t.ok(lines.includes('solo/bump') && lines.includes('alpha/bump') && lines.includes('pinned/bump'), "hub-admin tools search finds every server's tool, hub: false ones included");
  t.match(adminSearch.stderr, /not searched: fresh: /, 'and names the server never started');
  t.equal(startsOf('fresh'), 0, 'hub-admin started nothing');
  const refused = await hub.admin('tools', 'search');
  t.equal(refused.code, 2);
  t.match(refused.stderr, /say what to search for\nusage: hub-admin tools search <query>/);
  const pinningStill = await hub.admin('tools', 'pending');
  t.equal(pinningStill.code, 0, "tool-pinning's own tools group still answers beside it");
});
