import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { freePort } from '../helpers/net.js';
import { podmanEnvironment, whyNoPodman, type Podman } from '../helpers/podman.js';
import { podmanRunCommand, replaceOnce, testedBlock } from './docs-blocks.js';
import { REPOSITORY } from './manifests.js';

// The Containerfile and the deployment docs, run for real (issue 43, item 7): the blocks of
// docs/deployment/*.md marked `test:<name>` run as written in bash, in this order: the
// image's build, `podman run`, the upgrade's stop and a second `podman run` on the same
// volume, then `podman kube play` of deploy/podman and `podman kube down`. What the test
// changes, and only that: `podman` is a wrapper that adds the test's own store and
// containers.conf; the host port 3000 is a free port; the build's containers.conf gives
// `npm ci` this machine's npm cache and open-files limit, and BUILDAH_LAYERS=false keeps no
// layer per step; the base image (the Containerfile's
// default BASE, which no registry here serves) is made offline from this machine's node and
// npm by deploy/offline-base.sh, the docs' way without Docker Hub. Everything is kept in that store under one temporary folder (images, containers,
// pods, volumes, secrets), removed at the end, failed or not; nothing is cached between
// runs. What podman itself keeps outside is left alone: the `podman-default-kube-network`
// definition every `kube play` shares.

/** The Containerfile's default BASE: tagged so in the test's store, the build finds it there. */
const BASE = 'docker.io/library/node:24-slim';

const missing = whyNoPodman();
if (missing !== undefined) {
  t.comment(`no container engine: ${missing}`);
  t.plan(0, missing);
} else {
  // One image build (about a minute with a warm npm cache, several on a busy machine), two
  // container starts and a pod start; every wait below has its own bound, well inside this.
  t.setTimeout(15 * 60_000);
  await imageTests();
}

async function imageTests(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'hub-container-'));
  const podman: Podman = { options: ['--root', join(folder, 'storage'), '--runroot', join(folder, 'run')], env: podmanEnvironment(folder) };
  const run = (args: string[], timeoutMs = 120_000) => runPodman(podman, args, timeoutMs);
  const shell = docsShell(folder, podman);
  let removed = false;
  /** Removes everything the test made, whatever state it is in; synchronous, so it also runs on exit. */
  const removeAll = () => {
    if (removed) return;
    removed = true;
    for (const args of [
      ['pod', 'rm', '--force', '--all'],
      ['rm', '--force', '--all'],
      ['volume', 'rm', '--force', '--all'],
      ['secret', 'rm', '--all'],
      ['rmi', '--force', '--all'],
    ]) {
      spawnSync('podman', [...podman.options, ...args], { env: podman.env, stdio: 'ignore', timeout: 120_000 });
    }
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', removeAll);
  t.teardown(removeAll);

  const version = (JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')) as { version: string }).version;
  const image = `localhost/mcp-switchyard:${version}`;
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
  /** The docs' `podman run` block, publishing on the test's free port. */
  const runBlock = async () => replaceOnce(await testedBlock('run'), '-p 127.0.0.1:3000:3000', `-p 127.0.0.1:${hostPort}:3000`);

  t.test('deploy/offline-base.sh makes the base image: node, npm and the node user', async (t) => {
    // Issue 60, item 6: an air-gapped site builds on a base of its own, which this script
    // makes from the machine's node and npm (docs/deployment/container.md); here it is the
    // build's base, tagged as the Containerfile's default.
    const made = spawnSync(join(REPOSITORY, 'deploy/offline-base.sh'), [BASE], { env: { ...podman.env, PODMAN: ['podman', ...podman.options].join(' ') }, encoding: 'utf8', timeout: 300_000 });
    if (!t.equal(made.status, 0, 'the script ran', { output: `${made.stdout}\n${made.stderr}`.slice(-3000) })) return;
    const inside = await run(['run', '--rm', '--network=none', '--user', 'node', BASE, 'sh', '-c', 'node -p process.version && npm --version && node -p "process.getuid()"']);
    if (!succeeded(t, inside, 'node and npm in the base, as its node user')) return;
    const [nodeVersion, npmVersion, uid] = inside.stdout.trim().split('\n');
    t.equal(nodeVersion, process.version, "this machine's node");
    t.match(npmVersion, /^\d+\.\d+\.\d+$/, 'npm runs');
    t.equal(uid, '1000', 'the node user is uid 1000, as in the official image');
    reached = 1;
  });

  t.test("the docs' podman build, on that base", async (t) => {
    if (!needs(t, 1)) return;
    const npm = npmSettings();
    // npm in the build uses this machine's npm cache through an overlay (its writes are
    // dropped with the build) and the machine's registry settings, so it downloads
    // nothing it already has. npm ci opens many cache files at once: with podman's default
    // of 1024 open files it failed with EMFILE; the build may open as many as this process.
    writeFileSync(
      join(folder, 'npmrc'),
      [`cache=/npm-cache`, 'prefer-offline=true', `registry=${npm.registry}`, ...(npm.cafile ? ['cafile=/npm-ca.pem'] : []), 'update-notifier=false', ''].join('\n'),
    );
    const volumes = [...(existsSync(npm.cache) ? [`${npm.cache}:/npm-cache:O`] : []), `${join(folder, 'npmrc')}:/usr/local/etc/npmrc:ro`, ...(npm.cafile ? [`${npm.cafile}:/npm-ca.pem:ro`] : [])];
    const buildConf = join(folder, 'build-containers.conf');
    writeFileSync(
      buildConf,
      readFileSync(podman.env.CONTAINERS_CONF as string, 'utf8').replace(
        'default_ulimits = []',
        `default_ulimits = ["nofile=${openFilesLimit()}:${openFilesLimit()}"]\nvolumes = ${JSON.stringify(volumes)}`,
      ),
    );
    // BUILDAH_LAYERS=false: no layer is kept per step (--layers=false), which the test's
    // one build would only pay for.
    const build = await shell(await testedBlock('build'), { cwd: REPOSITORY, env: { CONTAINERS_CONF: buildConf, BUILDAH_LAYERS: 'false' }, timeoutMs: 600_000 });
    if (!succeeded(t, build, 'the build block of docs/deployment/container.md')) return;

    const revision = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY, encoding: 'utf8' }).stdout.trim();
    const [built] = JSON.parse((await run(['image', 'inspect', image])).stdout) as ImageInspect[];
    const [base] = JSON.parse((await run(['image', 'inspect', BASE])).stdout) as ImageInspect[];
    t.ok(built, `the docs tag the image ${image}, the package's version`);
    const config = built?.Config;
    t.equal(config?.User, '1000:1000', 'runs as a numeric non-root user');
    t.equal(config?.StopSignal, 'SIGTERM');
    t.same(config?.Cmd, ['node', '--max-semi-space-size=4', '/app/dist/core/cli/hub.js'], 'starts the hub as npm start does, its young generation kept to 4 MB');
    t.match(built?.Healthcheck?.Test?.join(' '), /^CMD node -e .*\/livez/, 'the health check asks /livez with node');
    t.ok(config?.Env?.includes('HOST=0.0.0.0'), 'listens on every address');
    t.notOk(
      config?.Env?.some((entry) => /^(HUB_PASSWORD|MONGODB_URL|METRICS_TOKEN)=/.test(entry)),
      'no secret in the image',
    );
    t.match(built?.Labels, {
      'org.opencontainers.image.title': 'mcp-switchyard',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.licenses': 'MIT',
      'org.opencontainers.image.revision': revision,
      'org.opencontainers.image.created': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      'org.opencontainers.image.base.name': BASE,
    });
    // What is inside: the built hub and production dependencies, no config, /data the user's.
    // (No health check: podman would run it from systemd timers, which these hosts lack.)
    const inside = await run(['run', '--rm', '--network=none', '--health-cmd=none', image, 'node', '-e', INSIDE_THE_IMAGE]);
    succeeded(t, inside, 'a script in the image');
    t.same(JSON.parse(inside.stdout), {
      app: ['dist', 'node_modules', 'package.json', 'plugins'],
      dist: ['core', 'plugins'],
      devDependency: false,
      fastify: true,
      config: false,
      data: { uid: 1000, mode: 0o700, entries: [] },
      bins: true,
      // The plugins folder holds only what the built plugins read at run time: the console's page assets, every one of them.
      consoleAssets: ['console', ...readdirSync(join(REPOSITORY, 'plugins/console/assets')).sort()],
    });
    t.comment(`image size: ${mb(built?.Size)} MB (${mb((built?.Size ?? 0) - (base?.Size ?? 0))} MB over the base, which is ${mb(base?.Size)} MB)`);
    reached = 2;
  });

  t.test("the docs' podman run: read-only root, the secret the hub's user's alone, a minted token calls a tool", async (t) => {
    if (!needs(t, 2)) return;
    hostPort = await freePort();
    // `$PWD/hub-config` holds the config: the image's own map server, as deploy/kubernetes's example.
    const cwd = join(folder, 'operator');
    mkdirSync(join(cwd, 'hub-config'), { recursive: true });
    writeFileSync(join(cwd, 'hub-config/mcp.json'), JSON.stringify({ mcpServers: { map: { command: 'map-server' } } }));
    const started = await shell(await runBlock(), { cwd });
    if (!succeeded(t, started, 'the podman run block of docs/deployment/container.md')) return;
    // The block ends with `hub-admin tokens mint`, which prints the token alone on stdout.
    token = started.stdout.trim().split('\n').at(-1) ?? '';
    t.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the block printed a minted token last');
    await waitForReady(t, run, url());

    for (const revision of REVISIONS) {
      const client = await connectClient(t, `${url()}/map/mcp`, revision, { authorization: `Bearer ${token}` });
      const { tools } = await client.listTools();
      toolCount = tools.length;
      t.ok(
        tools.some((tool) => tool.name === 'straight_line_distance'),
        `tools/list on /map/mcp (${revision})`,
      );
      const result = await client.callTool({ name: 'straight_line_distance', arguments: { from: '43.7384,7.4246', to: '43.7311,7.4197' } });
      t.notOk(result.isError, `tools/call on /map/mcp (${revision})`);
      const km = (result.structuredContent as { distance_km: number }).distance_km;
      t.ok(Math.abs(km - haversineKm([43.7384, 7.4246], [43.7311, 7.4197])) < 0.01, `the distance the stdio child computed (${km} km)`);
    }
    const refused = await fetch(`${url()}/map/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    t.equal(refused.status, 401, 'no token, no call');

    const [inspected] = JSON.parse((await run(['container', 'inspect', 'hub'])).stdout) as ContainerInspect[];
    t.equal(inspected?.HostConfig.ReadonlyRootfs, true, 'podman made the root file system read-only');
    const report = await insideContainer(t, run, 'hub');
    t.equal(report.uid, 1000, 'the hub runs as 1000, not root');
    t.notMatch(report.pid1, /node$/, `PID 1 reaps orphans: --init's ${report.pid1}, not the hub`);
    t.ok(report.rootOptions.split(',').includes('ro'), '/ is mounted read-only', { options: report.rootOptions });
    t.equal(report.writeApp, 'EROFS', 'nothing can be written to the image');
    t.same(report.tmp, [], 'nothing was written to /tmp');
    t.same(report.secret, { uid: 1000, mode: 0o400 }, "the password's file is the hub's user's alone");
    t.ok(report.data.includes('store') && report.data.includes('snapshots'), `the store and the snapshots are on the volume (${report.data.join(', ')})`);
    t.same(report.snapshots, ['map.json'], "the stdio child's tool snapshot");
    reached = 3;
  });

  t.test("the docs' upgrade: stopped, removed and run again on the same volume, the token and the snapshots are still there", async (t) => {
    if (!needs(t, 3)) return;
    const before = JSON.parse((await run(['container', 'inspect', 'hub'])).stdout) as ContainerInspect[];
    const stopped = await shell(await testedBlock('upgrade'), { cwd: folder });
    if (!succeeded(t, stopped, 'the upgrade block of docs/deployment/container.md')) return;
    t.equal((await run(['container', 'exists', 'hub'])).code, 1, 'the container is gone');
    t.equal((await run(['volume', 'exists', 'hub-data'])).code, 0, 'the volume is kept');
    const again = await shell(podmanRunCommand(await runBlock()), { cwd: join(folder, 'operator') });
    if (!succeeded(t, again, "the block's podman run, again")) return;
    await waitForReady(t, run, url());
    const [after] = JSON.parse((await run(['container', 'inspect', 'hub'])).stdout) as ContainerInspect[];
    t.not(after?.Id, before[0]?.Id, 'a new container');

    const client = await connectClient(t, `${url()}/hub`, '2026-07-28', { authorization: `Bearer ${token}` });
    const listed = (await client.callTool({ name: 'list_servers', arguments: {} })).structuredContent as { servers: { name: string; status: string; toolCount?: number }[] };
    const map = listed.servers.find((server) => server.name === 'map');
    t.equal(map?.status, 'sleeping', 'the map server has not started since');
    t.equal(map?.toolCount, toolCount, 'yet its tools are known: from the snapshot on the volume');
    const result = await client.callTool({ name: 'call_tool', arguments: { server: 'map', tool: 'straight_line_distance', arguments: { from: '0,0', to: '0,1' } } });
    t.notOk(result.isError, 'the token minted before the restart still calls tools');
    // SIGTERM drains and exits cleanly; the kube play below gets the machine to itself.
    succeeded(t, await shell(await testedBlock('upgrade'), { cwd: folder }), 'stopped and removed again');
    reached = 4;
  });

  t.test("the docs' podman kube play of deploy/podman: ready, a minted token calls a tool, non-root, read-only root", { skip: whyNoKubectl() }, async (t) => {
    if (!needs(t, 4)) return;
    hostPort = await freePort();
    // A copy of deploy/, its published port the test's free one.
    const checkout = join(folder, 'checkout');
    cpSync(join(REPOSITORY, 'deploy'), join(checkout, 'deploy'), { recursive: true });
    const overlay = join(checkout, 'deploy/podman/kustomization.yaml');
    writeFileSync(overlay, replaceOnce(readFileSync(overlay, 'utf8'), 'value: 3000', `value: ${hostPort}`));
    const started = performance.now();
    const played = await shell(await testedBlock('kube-play'), { cwd: checkout });
    if (!succeeded(t, played, 'the kube-play block of docs/deployment/kubernetes.md')) return;
    await waitForReady(t, run, url());
    t.comment(`start to ready: ${((performance.now() - started) / 1000).toFixed(1)} s (podman kube play until /readyz answers 200)`);

    const container = await hubContainer(run);
    const minted = await run(['exec', container, 'hub-admin', 'tokens', 'mint', '--all', '--label', 'container-test']);
    succeeded(t, minted, 'hub-admin tokens mint in the container');
    const client = await connectClient(t, `${url()}/map/mcp`, '2025-11-25', { authorization: `Bearer ${minted.stdout.trim()}` });
    const result = await client.callTool({ name: 'straight_line_distance', arguments: { from: '0,0', to: '0,1' } });
    t.notOk(result.isError, 'tools/call on /map/mcp in the pod');

    const [inspected] = JSON.parse((await run(['container', 'inspect', container])).stdout) as ContainerInspect[];
    t.equal(inspected?.HostConfig.ReadonlyRootfs, true, 'podman made the root file system read-only');
    const report = await insideContainer(t, run, container);
    t.equal(report.uid, 1000, 'the hub runs as 1000, not root');
    t.notMatch(report.pid1, /node$/, `PID 1 reaps orphans: the pod's pause process (${report.pid1}), not the hub`);
    t.equal(report.writeApp, 'EROFS', 'nothing can be written to the image');
    t.same(report.tmp, [], 'nothing was written to /tmp');

    // As the kubelet does, the hub's container first (podman's `pod stop` would stop the
    // pause process at the same time, and with it the whole shared process namespace).
    succeeded(t, await run(['container', 'stop', '--time=40', container]), 'podman container stop');
    const [stopped] = JSON.parse((await run(['container', 'inspect', container])).stdout) as ContainerInspect[];
    t.equal(stopped?.State.ExitCode, 0, 'SIGTERM: the hub drained and exited cleanly');
    const down = await shell(await testedBlock('kube-down'), { cwd: checkout });
    succeeded(t, down, 'the kube-down block of docs/deployment/kubernetes.md');
    t.equal((await run(['ps', '--all', '--quiet'])).stdout.trim(), '', 'no container is left');
    t.equal((await run(['volume', 'exists', 'mcp-switchyard-data'])).code, 0, 'the claim’s volume stays');
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

interface ShellRun {
  cwd: string;
  /** Added to the environment (the build's own containers.conf). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * Runs a block of the docs as written, in bash with `set -e` and `pipefail`; `podman` in it
 * is a wrapper that adds the test's store (the engine's options and containers.conf).
 */
function docsShell(folder: string, podman: Podman): (block: string, options: ShellRun) => Promise<Ran> {
  const bin = join(folder, 'bin');
  mkdirSync(bin);
  const real = spawnSync('sh', ['-c', 'command -v podman'], { encoding: 'utf8' }).stdout.trim();
  const quoted = [real, ...podman.options].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  writeFileSync(join(bin, 'podman'), `#!/bin/sh\nexec ${quoted} "$@"\n`);
  chmodSync(join(bin, 'podman'), 0o755);
  return (block, { cwd, env = {}, timeoutMs = 180_000 }) =>
    new Promise((resolve) => {
      const environment = { ...podman.env, ...env, PATH: `${bin}:${process.env.PATH ?? ''}` };
      execFile('bash', ['-e', '-o', 'pipefail', '-c', block], { cwd, env: environment, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, output: `${stdout}\n${stderr}`.trim() });
      });
    });
}

/** Why the kube play recipe cannot run here (it renders with kubectl), or undefined. */
function whyNoKubectl(): string | undefined {
  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  return kubectl.error ? `kubectl is not installed (${kubectl.error.message}); .ci/run installs Debian's kubernetes-client` : undefined;
}

/** Asserts that a podman command succeeded, with the end of its output when it did not. */
function succeeded(t: Test, ran: Ran, what: string): boolean {
  return t.equal(ran.code, 0, what, { output: ran.output.slice(-3000) });
}

/** Waits until /readyz answers 200; fails with the container's log if it ends first or takes minutes. */
async function waitForReady(t: Test, run: (args: string[]) => Promise<Ran>, base: string): Promise<void> {
  const until = Date.now() + 180_000;
  for (;;) {
    const status = await fetch(`${base}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    const exited = (await run(['ps', '--all', '--filter=status=exited', '--format={{.Names}}'])).stdout.trim();
    if (exited || Date.now() > until) {
      const logs = await run(['logs', '--latest']);
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

/** npm's cache, registry and CA file on this machine. */
function npmSettings(): { cache: string; registry: string; cafile: string | undefined } {
  const listed = spawnSync('npm', ['config', 'get', 'cache', 'registry', 'cafile'], { encoding: 'utf8' }).stdout;
  const value = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(listed)?.[1]?.trim();
  const cafile = value('cafile');
  return {
    cache: value('cache') ?? '',
    registry: value('registry') ?? 'https://registry.npmjs.org/',
    cafile: cafile && cafile !== 'null' && cafile !== 'undefined' ? cafile : undefined,
  };
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
  consoleAssets: fs.readdirSync('/app/plugins').concat(fs.readdirSync('/app/plugins/console/assets').sort()),
}));`;

interface InsideContainer {
  uid: number;
  pid1: string;
  rootOptions: string;
  writeApp: string;
  tmp: string[];
  /** The owner and mode of the file HUB_PASSWORD_FILE names, when it is set. */
  secret: { uid: number; mode: number } | null;
  data: string[];
  snapshots: string[];
}

/** Runs INSIDE_THE_CONTAINER beside the hub in `container` and reads its report. */
async function insideContainer(t: Test, run: (args: string[]) => Promise<Ran>, container: string): Promise<InsideContainer> {
  const seen = await run(['exec', container, 'node', '-e', INSIDE_THE_CONTAINER]);
  succeeded(t, seen, 'a script beside the hub');
  return JSON.parse(seen.stdout) as InsideContainer;
}

/**
 * Run beside the hub in its container: the hub's process (found by its command line: PID 1
 * is --init's or, in a pod sharing one process namespace, the pause process), its user and
 * how its / is mounted, the secret file's owner and mode, and what was written where.
 */
const INSIDE_THE_CONTAINER = `
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
  secret: process.env.HUB_PASSWORD_FILE ? ((stat) => ({ uid: stat.uid, mode: stat.mode & 0o777 }))(fs.statSync(process.env.HUB_PASSWORD_FILE)) : null,
  data: fs.readdirSync('/data/hub').sort(),
  snapshots: fs.readdirSync('/data/hub/snapshots'),
}));`;

interface ImageInspect {
  Size?: number;
  Labels?: Record<string, string>;
  Healthcheck?: { Test?: string[] };
  Config?: { User?: string; Env?: string[]; StopSignal?: string; Cmd?: string[] };
}

interface ContainerInspect {
  Id: string;
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
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('Max open files'));
  const hard = Number(line?.split(/\s{2,}/)[2]);
  return Number.isInteger(hard) && hard > 0 ? hard : 1024;
}
