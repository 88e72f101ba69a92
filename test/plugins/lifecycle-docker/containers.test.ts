import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import t from 'tap';
import { startHub, tempDir, waitFor } from '../../core/children/helpers.js';
import { cliPath } from '../../helpers/cli.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { fixtureVolumes, startEngine, whyNoPodman } from './podman.js';

const missing = whyNoPodman();
if (missing !== undefined) {
  t.comment(`no container engine: ${missing}`);
  t.plan(0, missing);
} else {
  await containerTests();
}

async function containerTests(): Promise<void> {
  const engine = await startEngine();
  t.teardown(() => engine.stop());
  const env = { DOCKER_HOST: engine.dockerHost };
  const entry = (extra: Record<string, unknown> = {}) => ({
    type: 'docker',
    image: engine.image,
    args: ['/usr/bin/node', '/app/children/container.js'],
    volumes: fixtureVolumes(),
    ...extra,
  });
  const labelled = async (label: string): Promise<string[]> => (await engine.docker.listContainers({ all: true, filters: { label: [label] } })).map((container) => container.Id);
  // The engine's storage is podman's shared one: a run that was killed mid-test may have
  // left containers behind, which are not this run's to count.
  const leftOver = new Set(await labelled('mcp-hub.server'));
  /** The IDs of the containers (running or not) that run server `name`, under any hub of this run. */
  const containersOf = async (name: string): Promise<string[]> => (await labelled(`mcp-hub.server=${name}`)).filter((id) => !leftOver.has(id));
  const text = (result: unknown): string => {
    const [block] = (result as CallToolResult).content;
    return block?.type === 'text' ? block.text : '';
  };

  t.test('a server in a container answers tools/list and tools/call through /<name>/mcp and /hub', async (t) => {
    const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false }, mcpServers: { boxed: entry() } }, env });
    for (const revision of REVISIONS) {
      const direct = await connectClient(t, `${url}/boxed/mcp`, revision);
      t.equal(text(await direct.callTool({ name: 'echo', arguments: {} })), 'ok', `tools/call on /boxed/mcp (${revision})`);
      const { tools } = await direct.listTools();
      t.same(tools.map((tool) => tool.name).sort(), ['echo', 'exit', 'flood', 'probe'], `tools/list on /boxed/mcp (${revision})`);
      const aggregate = await connectClient(t, `${url}/hub`, revision);
      t.equal(text(await aggregate.callTool({ name: 'call_tool', arguments: { server: 'boxed', tool: 'echo' } })), 'ok', `call_tool on /hub (${revision})`);
      const listed = (await aggregate.callTool({ name: 'list_tools', arguments: { server: 'boxed' } })).structuredContent as { tools: { name: string }[] };
      t.same(listed.tools.map((tool) => tool.name).sort(), ['echo', 'exit', 'flood', 'probe'], `list_tools on /hub (${revision})`);
    }
    t.equal((await containersOf('boxed')).length, 1, 'one container served every call');
  });

  t.test('sleep removes the container at once; the next call starts a new one', async (t) => {
    const { url, hub } = await startTestHub(t, { config: { plugins: { 'map-tools': false }, mcpServers: { lazy: entry() } }, env });
    const client = await connectClient(t, `${url}/hub`, '2026-07-28');
    t.equal(text(await client.callTool({ name: 'call_tool', arguments: { server: 'lazy', tool: 'echo' } })), 'ok');
    const [first, ...others] = await containersOf('lazy');
    t.ok(first, 'the call started a container');
    t.same(others, [], 'one container');
    const slept = await client.callTool({ name: 'sleep_server', arguments: { server: 'lazy' } });
    t.same(slept.structuredContent, { name: 'lazy', status: 'sleeping' });
    t.same(await containersOf('lazy'), [], 'the container was removed when sleep_server answered');
    t.equal(hub.children.get('lazy')?.tools.length, 4, 'the sleeping server keeps its tool list');

    t.equal(text(await client.callTool({ name: 'call_tool', arguments: { server: 'lazy', tool: 'echo' } })), 'ok', 'the next call woke it');
    const second = await containersOf('lazy');
    t.equal(second.length, 1, 'in one new container');
    t.not(second[0], first, 'not the removed one');
  });

  t.test('the container has no network, a read-only root, no capabilities and limits', async (t) => {
    const { app, hub, logs } = await startHub(t, { config: { mcpServers: { sandboxed: entry({ memory: '256m', pids: 64, cpus: 0.5, user: '65534:65534', tmpfs: ['/tmp'] }) } }, env });
    const child = hub.children.get('sandboxed');
    if (!child) throw new Error('no child');
    const report = JSON.parse(text(await child.withClient((client) => client.callTool({ name: 'probe', arguments: {} })))) as Record<string, unknown>;
    t.same(report, { interfaces: ['lo'], rootWritable: false, tmpWritable: true, capabilities: '0000000000000000', uid: 65534 }, 'seen from inside');
    const [id] = await containersOf('sandboxed');
    const inspected = await engine.docker.getContainer(id ?? '').inspect();
    t.equal(inspected.HostConfig.NetworkMode, 'none');
    t.equal(inspected.HostConfig.ReadonlyRootfs, true);
    t.equal(inspected.HostConfig.Privileged, false);
    // @types/dockerode has it as `any`.
    const securityOptions: unknown = inspected.HostConfig.SecurityOpt;
    t.ok(Array.isArray(securityOptions) && securityOptions.includes('no-new-privileges'), 'no-new-privileges');
    t.equal(inspected.HostConfig.PidsLimit, 64);
    t.equal(inspected.HostConfig.Memory, 256 * 1024 * 1024);
    t.equal(inspected.HostConfig.NanoCpus, 500_000_000);
    t.equal(inspected.Config.Labels['mcp-hub.server'], 'sandboxed');
    t.ok(
      logs.some((line) => line.server === 'sandboxed' && line.stream === 'stderr' && line.msg === 'sandboxed: container child started'),
      "the container's stderr is in the hub log under the server's name",
    );
    await app.close();
    t.same(await containersOf('sandboxed'), [], 'hub shutdown removed the container');
  });

  t.test('an image the engine does not have fails the start, saying the hub does not pull', async (t) => {
    const { hub } = await startHub(t, { config: { mcpServers: { absent: entry({ image: 'localhost/mcp-hub-no-such-image:1' }) } }, env, timings: { wakeBudgetMs: 1_000 } });
    await t.rejects(hub.children.get('absent')?.ensureUp() ?? Promise.reject(new Error('no child')), {
      message: /the image localhost\/mcp-hub-no-such-image:1 is not on the Docker engine at unix:\/\/.*; the hub does not pull images: pull it first/,
    });
    t.same(await containersOf('absent'), [], 'nothing was left behind');
  });

  t.test('a container whose server exits is removed, and the supervisor starts a new one', async (t) => {
    const { hub } = await startHub(t, { config: { mcpServers: { fragile: entry() } }, env });
    const child = hub.children.get('fragile');
    if (!child) throw new Error('no child');
    await child.ensureUp();
    const [first] = await containersOf('fragile');
    await t.rejects(child.withClient((client) => client.callTool({ name: 'exit', arguments: {} })));
    await waitFor('the exited container to be removed', async () => !(await containersOf('fragile')).includes(first ?? ''));
    t.match(child.lastError, /^the container exited with code 3 \(last stderr line: container child started\)$/);
    await waitFor('the restart', () => child.status === 'up');
    const now = await containersOf('fragile');
    t.equal(now.length, 1, 'one new container');
    t.not(now[0], first);
  });

  t.test('a container that floods stdout is cut off, reported and removed', async (t) => {
    const { hub, logs } = await startHub(t, {
      config: { plugins: { 'lifecycle-docker': { maxMessageBytes: 65_536 } }, mcpServers: { noisy: entry() } },
      env,
      timings: { backoffBaseMs: 60_000 },
    });
    const child = hub.children.get('noisy');
    if (!child) throw new Error('no child');
    await child.ensureUp();
    const [flooding] = await containersOf('noisy');
    await t.rejects(
      child.withClient((client) => client.callTool({ name: 'flood', arguments: {} })),
      'the call fails',
    );
    t.match(child.lastError, /^the container was cut off: it sent more than 65536 bytes without ending a message/);
    t.ok(
      logs.some((line) => line.level === 40 && String(line.reason).includes('cut off')),
      'the cut-off is in the hub log as a warning',
    );
    await waitFor('the flooding container to be removed', async () => !(await containersOf('noisy')).includes(flooding ?? ''));
    t.pass('the flooding container was removed');
  });

  t.test("a hub restart removes the containers its crashed run left, and no other hub's", async (t) => {
    const dataPath = await tempDir(t);
    const configFile = join(dataPath, 'mcp.json');
    const stubborn = entry({ env: { OUTLIVE_STDIN: '1' } });
    await writeFile(configFile, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { stubborn: { ...stubborn, keepAlive: true } } }));
    const crashing = spawn(process.execPath, [cliPath('hub')], {
      env: { ...process.env, ...env, HUB_CONFIG: configFile, DATA_PATH: dataPath, HOST: '127.0.0.1', PORT: '0' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => crashing.once('exit', resolve));
    t.teardown(() => crashing.kill('SIGKILL'));
    await waitFor('the always-running container', async () => (await containersOf('stubborn')).length === 1);
    const [left] = await containersOf('stubborn');

    // Another hub (another DATA_PATH) with a container of its own.
    const { hub: neighbour } = await startHub(t, { config: { mcpServers: { neighbour: entry() } }, env });
    await neighbour.children.get('neighbour')?.ensureUp();
    const [neighbours] = await containersOf('neighbour');

    crashing.kill('SIGKILL');
    await exited;
    t.same(await containersOf('stubborn'), [left], 'the killed hub left its container behind');

    await startHub(t, { config: { mcpServers: { stubborn } }, dataPath, env });
    await waitFor('the left-over container to be removed', async () => (await containersOf('stubborn')).length === 0);
    t.pass('the restarted hub removed it');
    t.same(await containersOf('neighbour'), [neighbours], "the other hub's container is untouched");
  });

  t.test("a container's list changes reach a 2026-07-28 listen stream", async (t) => {
    const servers = fileURLToPath(new URL('../../fixtures/servers/', import.meta.url));
    const ticking = entry({
      args: ['/usr/bin/node', '/app/servers/conformance.js', '--variant', 'ticking'],
      env: { TICK_MS: '200' },
      volumes: [...fixtureVolumes(), { source: servers, target: '/app/servers' }],
    });
    const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false }, mcpServers: { ticking } }, env });
    const client = await connectClient(t, `${url}/ticking/mcp`, '2026-07-28');
    const heard = new Set<string>();
    client.setNotificationHandler('notifications/tools/list_changed', async () => void heard.add('tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', async () => void heard.add('prompts'));
    client.setNotificationHandler('notifications/resources/list_changed', async () => void heard.add('resources'));
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    await waitFor('the three list changes on the stream', () => heard.size === 3);
    t.same([...heard].sort(), ['prompts', 'resources', 'tools'], 'tools, prompts and resources list changes arrive');
    await subscription.close();
  });
}
