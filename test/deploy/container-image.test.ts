import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallToolResult } from '@modelcontextprotocol/client';
import t, { type Test } from 'tap';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { freePort } from '../helpers/net.js';
import { copyWithLibraries, importImage, podmanEnvironment, whyNoPodman, type Podman } from '../helpers/podman.js';
import { loadManifests, REPOSITORY } from './manifests.js';
import { podmanSecret, renderForPodman } from './podman-kube.js';

// The Containerfile and deploy/kubernetes, run for real: the image is built from a base
// made offline (this machine's node and npm laid out as in the official Node.js image),
// and `podman kube play` runs the manifests (rendered for podman: podman-kube.ts). The
// test keeps everything in a podman store of its own under one temporary folder (images,
// containers, pods, volumes, secrets), removes it all at the end, failed or not, and
// caches nothing between runs. What podman itself keeps outside is left alone: the
// `podman-default-kube-network` definition every `kube play` shares.

const BASE = 'localhost/mcp-switchyard-test-base:node';
const IMAGE = 'localhost/mcp-switchyard:test';
const PASSWORD = 'container test password';

const missing = whyNoPodman();
if (missing !== undefined) {
  t.comment(`no container engine: ${missing}`);
  t.plan(0, missing);
} else {
  // One image build (about a minute with a warm npm cache, longer on a busy machine) and
  // two pod starts; every wait below has its own bound, well inside this.
  t.setTimeout(15 * 60_000);
  await imageTests();
}

async function imageTests(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'hub-container-'));
  const podman: Podman = { options: ['--root', join(folder, 'storage'), '--runroot', join(folder, 'run')], env: podmanEnvironment(folder) };
  const run = (args: string[], timeoutMs = 120_000) => runPodman(podman, args, timeoutMs);
  let removed = false;
  /** Removes everything the test made, whatever state it is in; synchronous, so it also runs on exit. */
  const removeAll = () => {
    if (removed) return;
    removed = true;
    for (const args of [['pod', 'rm', '--force', '--all'], ['volume', 'rm', '--force', '--all'], ['secret', 'rm', '--all'], ['rmi', '--force', '--all']]) {
      spawnSync('podman', [...podman.options, ...args], { env: podman.env, stdio: 'ignore', timeout: 120_000 });
    }
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', removeAll);
  t.teardown(removeAll);

  const manifests = loadManifests();
  const version = (JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')) as { version: string }).version;
  /** Each step needs the one before: after a failure the next ones say so and stop. */
  let reached = 0;
  const needs = (t: Test, step: number) => {
    if (reached >= step) return true;
    t.fail('an earlier step failed');
    return false;
  };
  let token = '';
  let toolCount = 0;
  let hostPort = 0;
  const url = () => `http://127.0.0.1:${hostPort}`;

  t.test('the Containerfile builds on a locally made Node.js base', async (t) => {
    const npm = npmSettings();
    importImage(podman, BASE, (root) => officialLikeBase(root, npm.prefix), ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'CMD ["node"]']);
    // npm in the build uses this machine's npm cache through an overlay (its writes are
    // dropped with the build) and the machine's registry settings, so it downloads
    // nothing it already has.
    writeFileSync(join(folder, 'npmrc'), [`cache=/npm-cache`, 'prefer-offline=true', `registry=${npm.registry}`, ...(npm.cafile ? ['cafile=/npm-ca.pem'] : []), 'update-notifier=false', ''].join('\n'));
    const revision = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY, encoding: 'utf8' }).stdout.trim();
    const build = await run(
      [
        'build',
        '--layers=false',
        '--format=docker',
        // npm ci opens many cache files at once: with podman's default of 1024 open files it
        // failed with EMFILE; the build may open as many as this process may.
        `--ulimit=nofile=${openFilesLimit()}:${openFilesLimit()}`,
        `--build-arg=BASE=${BASE}`,
        `--build-arg=REVISION=${revision}`,
        `--build-arg=CREATED=${new Date().toISOString()}`,
        ...(existsSync(npm.cache) ? [`--volume=${npm.cache}:/npm-cache:O`] : []),
        `--volume=${join(folder, 'npmrc')}:/usr/local/etc/npmrc:ro`,
        ...(npm.cafile ? [`--volume=${npm.cafile}:/npm-ca.pem:ro`] : []),
        `--tag=${IMAGE}`,
        `--file=${join(REPOSITORY, 'Containerfile')}`,
        REPOSITORY,
      ],
      600_000,
    );
    if (!succeeded(t, build, 'podman build')) return;

    const [image] = JSON.parse((await run(['image', 'inspect', IMAGE])).stdout) as ImageInspect[];
    const [base] = JSON.parse((await run(['image', 'inspect', BASE])).stdout) as ImageInspect[];
    const config = image?.Config;
    t.equal(config?.User, '1000:1000', 'runs as a numeric non-root user');
    t.equal(config?.StopSignal, 'SIGTERM');
    t.match(image?.Healthcheck?.Test?.join(' '), /^CMD node -e .*\/livez/, 'the health check asks /livez with node');
    t.ok(config?.Env?.includes('HOST=0.0.0.0'), 'listens on every address');
    t.notOk(config?.Env?.some((entry) => /^(HUB_PASSWORD|MONGODB_URL|METRICS_TOKEN)=/.test(entry)), 'no secret in the image');
    t.match(image?.Labels, {
      'org.opencontainers.image.title': 'mcp-switchyard',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.licenses': 'MIT',
      'org.opencontainers.image.revision': revision,
      'org.opencontainers.image.base.name': BASE,
    });
    // What is inside: the built hub and production dependencies, no config, /data the user's.
    // (No health check: podman would run it from systemd timers, which these hosts lack.)
    const inside = await run(['run', '--rm', '--network=none', '--health-cmd=none', IMAGE, 'node', '-e', INSIDE_THE_IMAGE]);
    succeeded(t, inside, 'a script in the image');
    t.same(JSON.parse(inside.stdout), { app: ['dist', 'node_modules', 'package.json'], dist: ['core', 'plugins'], devDependency: false, fastify: true, config: false, data: { uid: 1000, mode: 0o700, entries: [] }, bins: true });
    t.comment(`image size: ${mb(image?.Size)} MB (${mb((image?.Size ?? 0) - (base?.Size ?? 0))} MB over the base, which is ${mb(base?.Size)} MB)`);
    reached = 1;
  });

  t.test('podman kube play runs the manifests: ready, a minted token calls a tool, non-root, read-only root', async (t) => {
    if (!needs(t, 1)) return;
    hostPort = await freePort();
    const secret = join(folder, 'secret.json');
    writeFileSync(secret, podmanSecret({ HUB_PASSWORD: PASSWORD }));
    succeeded(t, await run(['secret', 'create', 'mcp-switchyard', secret]), 'the Secret the Deployment refers to');
    const play = join(folder, 'play.yaml');
    writeFileSync(play, renderForPodman(manifests, { image: IMAGE, hostPort, withClaim: true }));
    const started = performance.now();
    const played = await run(['kube', 'play', play]);
    if (!succeeded(t, played, 'podman kube play')) return;
    await waitForReady(t, run, url());
    t.comment(`start to ready: ${((performance.now() - started) / 1000).toFixed(1)} s (podman kube play until /readyz answers 200)`);

    const container = await hubContainer(run);
    const minted = await run(['exec', container, 'hub-admin', 'tokens', 'mint', '--all', '--label', 'container-test']);
    succeeded(t, minted, 'hub-admin tokens mint in the container');
    token = minted.stdout.trim();
    t.ok(token, 'hub-admin minted a token inside the container');

    for (const revision of REVISIONS) {
      const client = await connectClient(t, `${url()}/map/mcp`, revision, { authorization: `Bearer ${token}` });
      const { tools } = await client.listTools();
      toolCount = tools.length;
      t.ok(tools.some((tool) => tool.name === 'straight_line_distance'), `tools/list on /map/mcp (${revision})`);
      const result = (await client.callTool({ name: 'straight_line_distance', arguments: { from: '43.7384,7.4246', to: '43.7311,7.4197' } })) as CallToolResult;
      t.notOk(result.isError, `tools/call on /map/mcp (${revision})`);
      const km = (result.structuredContent as { distance_km: number }).distance_km;
      t.ok(Math.abs(km - haversineKm([43.7384, 7.4246], [43.7311, 7.4197])) < 0.01, `the distance the stdio child computed (${km} km)`);
    }
    const refused = await fetch(`${url()}/map/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    t.equal(refused.status, 401, 'no token, no call');

    const [inspected] = JSON.parse((await run(['container', 'inspect', container])).stdout) as ContainerInspect[];
    t.equal(inspected?.HostConfig.ReadonlyRootfs, true, 'podman made the root file system read-only');
    const seen = await run(['exec', container, 'node', '-e', INSIDE_THE_POD]);
    succeeded(t, seen, 'a script beside the hub');
    const report = JSON.parse(seen.stdout) as InsidePod;
    t.equal(report.uid, 1000, 'the hub runs as 1000, not root');
    t.notMatch(report.pid1, /node$/, `PID 1 reaps orphans: the pod's pause process (${report.pid1}), not the hub`);
    t.ok(report.rootOptions.split(',').includes('ro'), '/ is mounted read-only', { options: report.rootOptions });
    t.equal(report.writeApp, 'EROFS', 'nothing can be written to the image');
    t.same(report.tmp, [], 'nothing was written to /tmp');
    t.ok(report.data.includes('store') && report.data.includes('snapshots'), `the store and the snapshots are on the volume (${report.data.join(', ')})`);
    t.same(report.snapshots, ['map.json'], "the stdio child's tool snapshot");
    reached = 2;
  });

  t.test('after the pod is stopped and played again, the token and the snapshots are still there', async (t) => {
    if (!needs(t, 2)) return;
    // As the kubelet does, the hub's container first (podman's `pod stop` would stop the
    // pause process at the same time, and with it the whole shared process namespace).
    const container = await hubContainer(run);
    succeeded(t, await run(['container', 'stop', '--time=40', container]), 'podman container stop');
    const [stopped] = JSON.parse((await run(['container', 'inspect', container])).stdout) as ContainerInspect[];
    t.equal(stopped?.State.ExitCode, 0, 'SIGTERM: the hub drained and exited cleanly');
    succeeded(t, await run(['kube', 'down', join(folder, 'play.yaml')]), 'podman kube down');
    const replay = join(folder, 'replay.yaml');
    writeFileSync(replay, renderForPodman(manifests, { image: IMAGE, hostPort, withClaim: false }));
    const played = await run(['kube', 'play', replay]);
    if (!succeeded(t, played, 'podman kube play, again')) return;
    await waitForReady(t, run, url());
    t.not(await hubContainer(run), container, 'a new container');

    const client = await connectClient(t, `${url()}/hub`, '2026-07-28', { authorization: `Bearer ${token}` });
    const listed = (await client.callTool({ name: 'list_servers', arguments: {} })).structuredContent as { servers: { name: string; status: string; toolCount?: number }[] };
    const map = listed.servers.find((server) => server.name === 'map');
    t.equal(map?.status, 'sleeping', 'the map server has not started since');
    t.equal(map?.toolCount, toolCount, 'yet its tools are known: from the snapshot on the volume');
    const result = (await client.callTool({ name: 'call_tool', arguments: { server: 'map', tool: 'straight_line_distance', arguments: { from: '0,0', to: '0,1' } } })) as CallToolResult;
    t.notOk(result.isError, 'the token minted before the restart still calls tools');
  });

  t.test('everything the test made is removed', async (t) => {
    removeAll();
    t.notOk(existsSync(folder), 'its podman store is gone');
    const mounts = readFileSync('/proc/self/mounts', 'utf8');
    t.notOk(mounts.includes(folder), 'nothing of it is still mounted');
  });
}

interface Ran {
  code: number;
  stdout: string;
  /** stdout and stderr, for messages. */
  output: string;
}

/** Runs podman (killed after `timeoutMs`); resolves with its exit code and what it printed. */
function runPodman(podman: Podman, args: string[], timeoutMs: number): Promise<Ran> {
  return new Promise((resolve) => {
    execFile('podman', [...podman.options, ...args], { env: podman.env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, output: `${stdout}\n${stderr}`.trim() });
    });
  });
}

/** Asserts that a podman command succeeded, with the end of its output when it did not. */
function succeeded(t: Test, ran: Ran, what: string): boolean {
  return t.equal(ran.code, 0, what, { output: ran.output.slice(-3000) });
}

/** Waits until /readyz answers 200; fails with the container's log if it ends first or takes minutes. */
async function waitForReady(t: Test, run: (args: string[]) => Promise<Ran>, base: string): Promise<void> {
  const until = Date.now() + 180_000;
  for (;;) {
    const status = await fetch(`${base}/readyz`).then((response) => response.status, () => 0);
    if (status === 200) return;
    const exited = (await run(['ps', '--all', '--filter=status=exited', '--format={{.Names}}'])).stdout.trim();
    if (exited || Date.now() > until) {
      const logs = await run(['pod', 'logs', '--latest']);
      t.fail(`the hub did not become ready (${exited ? `exited: ${exited}` : 'no answer in 3 minutes'})`, { logs: logs.output.slice(-3000) });
      throw new Error('not ready');
    }
    await sleep(100);
  }
}

/** The ID of the hub's container (the one that is not the pod's infra container). */
async function hubContainer(run: (args: string[]) => Promise<Ran>): Promise<string> {
  const containers = JSON.parse((await run(['ps', '--all', '--format=json'])).stdout || '[]') as { Id: string; IsInfra: boolean }[];
  const [hub] = containers.filter((container) => !container.IsInfra);
  if (!hub) throw new Error('no hub container');
  return hub.Id;
}

/** npm's cache, registry, CA file and prefix on this machine. */
function npmSettings(): { cache: string; registry: string; cafile: string | undefined; prefix: string } {
  const listed = spawnSync('npm', ['config', 'get', 'cache', 'registry', 'cafile', 'prefix'], { encoding: 'utf8' }).stdout;
  const value = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(listed)?.[1]?.trim();
  const cafile = value('cafile');
  return { cache: value('cache') ?? '', registry: value('registry') ?? 'https://registry.npmjs.org/', cafile: cafile && cafile !== 'null' && cafile !== 'undefined' ? cafile : undefined, prefix: value('prefix') ?? '/usr' };
}

/**
 * The layout of the official Node.js image, from this machine's files: node and npm in
 * /usr/local, /bin/sh and /usr/bin/env (npm's scripts use them), the `node` user (1000).
 */
function officialLikeBase(root: string, npmPrefix: string): void {
  copyWithLibraries(root, realpathSync(process.execPath), '/usr/local/bin/node');
  copyWithLibraries(root, realpathSync('/bin/sh'), '/bin/sh');
  copyWithLibraries(root, realpathSync('/usr/bin/env'), '/usr/bin/env');
  cpSync(realpathSync(join(npmPrefix, 'lib/node_modules/npm')), join(root, 'usr/local/lib/node_modules/npm'), { recursive: true });
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
  for (const path of ['etc', 'root', 'home/node', 'tmp']) mkdirSync(join(root, path), { recursive: true });
  spawnSync('chmod', ['1777', join(root, 'tmp')]);
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
}

/** Run in the image: what /app holds, whether a dev dependency came along, /config and /data. */
const INSIDE_THE_IMAGE = `
const fs = require('node:fs');
const data = fs.statSync('/data');
console.log(JSON.stringify({
  app: fs.readdirSync('/app').sort(),
  dist: fs.readdirSync('/app/dist').sort(),
  devDependency: fs.existsSync('/app/node_modules/typescript') || fs.existsSync('/app/node_modules/tap'),
  fastify: fs.existsSync('/app/node_modules/fastify/package.json'),
  config: fs.existsSync('/config'),
  data: { uid: data.uid, mode: data.mode & 0o777, entries: fs.readdirSync('/data') },
  bins: ['hub', 'hub-admin', 'hub-stdio', 'map-server'].every((bin) => fs.realpathSync('/usr/local/bin/' + bin).startsWith('/app/dist/')),
}));`;

interface InsidePod {
  uid: number;
  pid1: string;
  rootOptions: string;
  writeApp: string;
  tmp: string[];
  data: string[];
  snapshots: string[];
}

/**
 * Run beside the hub in its container: the hub's process (found by its command line: the
 * pod shares one process namespace, whose PID 1 is the pause process), its user and how its
 * / is mounted, and what was written where.
 */
const INSIDE_THE_POD = `
const fs = require('node:fs');
const command = (pid) => fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').filter(Boolean);
const hub = fs.readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid)).find((pid) => { try { return command(pid).includes('/app/dist/core/cli/hub.js'); } catch { return false; } });
const root = fs.readFileSync('/proc/' + hub + '/mounts', 'utf8').split('\\n').map((line) => line.split(' ')).find((fields) => fields[1] === '/');
let writeApp = 'written';
try { fs.writeFileSync('/app/written-by-the-test', ''); } catch (error) { writeApp = error.code; }
console.log(JSON.stringify({
  uid: Number(/^Uid:\\s+(\\d+)/m.exec(fs.readFileSync('/proc/' + hub + '/status', 'utf8'))[1]),
  pid1: command(1)[0],
  rootOptions: root[3],
  writeApp,
  tmp: fs.readdirSync('/tmp'),
  data: fs.readdirSync('/data/hub').sort(),
  snapshots: fs.readdirSync('/data/hub/snapshots'),
}));`;

interface ImageInspect {
  Size?: number;
  Labels?: Record<string, string>;
  Healthcheck?: { Test?: string[] };
  Config?: { User?: string; Env?: string[]; StopSignal?: string };
}

interface ContainerInspect {
  State: { ExitCode: number };
  HostConfig: { ReadonlyRootfs: boolean };
}

function mb(bytes: number | undefined): string {
  return ((bytes ?? 0) / 1e6).toFixed(0);
}

/** Great-circle distance on a sphere of the Earth's mean radius, written here independently of the map tools. */
function haversineKm([lat1, lon1]: [number, number], [lat2, lon2]: [number, number]): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const a = Math.sin(radians(lat2 - lat1) / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(radians(lon2 - lon1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

/** The most files this process may open (its hard limit), from /proc: what a build it starts may be given. */
function openFilesLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((entry) => entry.startsWith('Max open files'));
  const hard = Number(line?.split(/\s{2,}/)[2]);
  return Number.isInteger(hard) && hard > 0 ? hard : 1024;
}
