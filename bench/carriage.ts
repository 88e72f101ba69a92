// tools/call through the hub against the floors of this machine, in one run:
//
// - the bare HTTP floor: a `node:http` server answering a fixed tool result (http-floor.ts);
// - the stdio floor: server-everything's `echo` straight over its own stdio (stdio-floor.ts),
//   what no hub in front of that child can exceed;
// - the Fastify floor: the bare HTTP floor's contract as a Fastify app with its default JSON
//   body parser and one route (fastify-floor.ts), what any Fastify app parsing a JSON request
//   costs;
// - the stdio proxy floor: a `node:http` server forwarding each request to server-everything
//   over its stdio and answering with the child's result (stdio-proxy-floor.ts), one HTTP
//   exchange and one pipe round trip per call with no checks, what any gateway in front of
//   that child costs at the least;
// - the hub: the real `hub` CLI in its own process, as `npm start` runs it (bearer
//   verification on with an API token minted by `hub-admin`, the per-client limits on, its
//   log read from a pipe as a collector would), in front of server-everything as a
//   keepAlive stdio child (`everything`): `/everything/mcp` and `/hub` `call_tool`, on both
//   revisions, once per setting: `default` (LOG_LEVEL=info, observability on: what a user
//   gets), `no-observability` (the observability plugin off) and `quiet` (LOG_LEVEL=warn and
//   observability off); and, when asked (`--settings default,guardrails`), `guardrails`:
//   default with guard-secrets and output-limit on (their cost per call: its cpu us/call
//   less default's, from the best rounds, then round by round with the median);
// - with `--http-child`, also an HTTP child (http-child.ts) straight, through a bare
//   forwarding proxy (bare-proxy.ts, the floor of any extra HTTP hop) and through the hub.
//
// Load comes from raw-client.ts, a raw keep-alive HTTP client in its own process, at 1 and
// 16 callers in a closed loop. Its ceiling (a million over its own CPU microseconds per
// call, against the floor) is printed, and must be at least 3x the hub's best figure for the
// hub's figures to measure the hub. The floor's CPU per request is read from /proc like the
// hub's, and "x bare cpu" is the hub's over it at the same caller count and revision: the
// share of a call that is the hub's own work, whatever the machine. "x proxy cpu" is the
// hub's over the stdio proxy floor's (for the roads to server-everything): what the hub
// costs beyond the hop it cannot avoid. The header of each caller count gives each floor's
// CPU over the bare floor's, and an estimate of a Fastify app in front of a pipe (the proxy
// floor plus what Fastify adds to the bare floor): what the parts the hub must use cost
// together. Every subject is measured once per round, in turn, so that load from elsewhere
// hits them alike; the best round is kept (lowest p50 at one caller, highest calls/s beyond)
// and the range of calls/s printed beside it. The hub's CPU per call is its process's (every
// thread) over the round, read from /proc; "log/call" is the log lines it wrote per call;
// "child" is the stdio child's CPU per call, under the hub and under the stdio proxy floor
// alike: what the hub has its child do beyond what a bare proxy has it do.
//
// Run: npm run build && node dist/bench/carriage.js [--calls 10000] [--rounds 3] [--callers 1,16]
//      [--settings default,no-observability,quiet] [--only <text>] [--http-child] [--message-bytes 2]
// `--message-bytes <n>` makes the hub roads' echo message (and so its result) n bytes long.
// `--only` keeps the hub subjects whose label contains the text (floors always run).
// `--hub-node-args="<options>"` adds Node options to this checkout's hubs, not the baseline's
// (`--cpu-prof --cpu-prof-dir=<dir>` to profile the hub under this load; with `--baseline .`,
// a V8 setting weighed against the default in one run).
// `--baseline <checkout or commit>` also runs another checkout's hub with the `default` setting
// in the same rounds, labelled `[default, baseline]`: before and after a change in one run. A
// folder is used as it is (built); a commit is checked out and built in a temporary worktree
// (baseline-checkout.ts).
// After the rounds, each hub road's allocation per call at 16 callers is read with V8's
// sampling heap profiler through the hub's inspector, and each floor's through its own, so
// that the hub's share shows beside the stdio proxy floor's (allocation.ts; `--allocation-calls`,
// default 4000, 0 to skip; `--allocation-top <n>` also prints the n frames allocating most),
// and a summary per road and revision prints hub CPU per call over the stdio proxy floor's at
// 16 callers beside it: issue 57's targets (at most 1.5x, at most 15 KB).
import { startBareProxy } from './bare-proxy.js';
import { everythingScript as everything } from './everything-stdio.js';
import { allocationPerCall, type Allocation } from './allocation.js';
import { baselineCheckout } from './baseline-checkout.js';
import { benchCommandLine } from './command-line.js';
import { startHubBin, type BenchHubBin } from './hub-bin.js';
import type { InspectorLink } from './inspector.js';
import { percentile, rawLoad, startFastifyFloor, startHttpChild, startHttpFloor, startStdioProxyFloor, stdioFloorFromProcess, type LoadFigures, type PortServer } from './measure.js';
import type { RawFigures } from './raw-client.js';

const USAGE = `Usage: node dist/bench/carriage.js [--calls 10000] [--rounds 3] [--callers 1,16] [--settings default,no-observability,quiet,guardrails]
  [--only <text>] [--baseline <checkout or commit>] [--http-child] [--message-bytes 2] [--allocation-calls 4000] [--allocation-top 0]
  [--hub-node-args="<options>"]   (what each does: the comment at the top of bench/carriage.ts)`;
const { values } = benchCommandLine(
  {
    options: {
      calls: { type: 'string', default: '10000' },
      rounds: { type: 'string', default: '3' },
      callers: { type: 'string', default: '1,16' },
      settings: { type: 'string', default: 'default,no-observability,quiet' },
      only: { type: 'string' },
      baseline: { type: 'string' },
      'allocation-calls': { type: 'string', default: '4000' },
      'allocation-top': { type: 'string', default: '0' },
      'hub-node-args': { type: 'string', default: '' },
      'http-child': { type: 'boolean', default: false },
      'message-bytes': { type: 'string', default: '2' },
    },
  },
  USAGE,
);
const calls = Number(values.calls);
const rounds = Number(values.rounds);
const callerCounts = values.callers.split(',').map(Number);
const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
type Revision = (typeof REVISIONS)[number];

const SETTINGS = {
  default: { env: { LOG_LEVEL: 'info' }, observability: true, guardrails: false },
  'no-observability': { env: { LOG_LEVEL: 'info' }, observability: false, guardrails: false },
  quiet: { env: { LOG_LEVEL: 'warn' }, observability: false, guardrails: false },
  // `default` with guard-secrets and output-limit on every call: the difference of its cpu us per call from default's is their cost.
  guardrails: { env: { LOG_LEVEL: 'info' }, observability: true, guardrails: true },
} as const;
type Setting = keyof typeof SETTINGS;
const settings = values.settings.split(',') as Setting[];
for (const setting of settings) if (!(setting in SETTINGS)) throw new Error(`unknown setting ${setting}: one of ${Object.keys(SETTINGS).join(', ')}`);

const floor = await startHttpFloor();
const fastifyFloor = await startFastifyFloor();
const proxyFloor = await startStdioProxyFloor();
const httpChild = values['http-child'] ? await startHttpChild() : undefined;
const bare = httpChild ? await startBareProxy(httpChild.url) : undefined;
// CARRIAGE_LEAST_PRIVILEGE=on binds the token to the endpoints it calls and its /hub reach to
// the servers, and pins every server's tools (approved as first seen): every call then pays
// the resource check and the pin check.
const leastPrivilege = process.env.CARRIAGE_LEAST_PRIVILEGE === 'on';
const servers = ['everything', ...(httpChild ? ['web'] : [])];
const reach = leastPrivilege ? [...[...servers, 'hub'].flatMap((resource) => ['--resource', resource]), '--servers', servers.join(',')] : ['--all'];

interface RunningHub {
  setting: Setting;
  /** `setting`, and whether it is the baseline checkout's hub. */
  label: string;
  hub: BenchHubBin;
  token: string;
}
const hubs: RunningHub[] = [];
const baseline = values.baseline === undefined ? undefined : baselineCheckout(values.baseline);
process.on('exit', () => baseline?.remove());
const runs = [...settings.map((setting) => ({ setting, checkout: undefined as string | undefined })), ...(baseline ? [{ setting: 'default' as Setting, checkout: baseline.root }] : [])];
for (const { setting, checkout } of runs) {
  const { env, observability, guardrails } = SETTINGS[setting];
  const hub = await startHubBin(
    { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'], keepAlive: true }, ...(httpChild && { web: { type: 'http', url: httpChild.url } }) } },
    // The limit stays on: counted for every call, high enough never to refuse one here.
    {
      plugins: {
        'oauth-as': true,
        observability,
        ...(leastPrivilege && { 'tool-pinning': { allServers: true, approveFirstSight: true } }),
        ...(guardrails && { 'guard-secrets': true, 'output-limit': true }),
      },
      env: { ...env, HUB_PASSWORD: 'bench', CLIENT_CALLS_PER_MINUTE: '100000000' },
      checkout,
      nodeArgs: checkout === undefined ? values['hub-node-args'].split(' ').filter(Boolean) : [],
      inspectable: true,
    },
  );
  const token = (await hub.admin('tokens', 'mint', '--label', 'carriage bench', '--expires-in', '1', ...reach)).trim();
  hubs.push({ setting, label: checkout === undefined ? setting : `${setting}, baseline`, hub, token });
}

type Kind = 'floor' | 'fastify-floor' | 'proxy-floor' | 'stdio-floor' | 'direct' | 'bare' | 'hub';
interface Subject {
  label: string;
  kind: Kind;
  revision: Revision | 'stdio';
  setting?: Setting;
  hub?: BenchHubBin;
  /** The serving process's CPU so far, in microseconds, when it is measured (the floor's, a hub's). */
  cpuMicros?: () => number;
  /** Its stdio child's CPU so far, in microseconds (a hub's, the stdio proxy floor's). */
  childCpuMicros?: () => number;
  run(callers: number, count: number): Promise<RawFigures | LoadFigures>;
}

// The hub roads' echo message, and so the result's size (issue 54.4 weighs the guardrails on a 1 KB result: `--message-bytes 1024`):
// records as an API answers them, with ids, URLs and hashes that guard-secrets must read (prose alone it skips), and no secret.
const RECORD = "{'id':'3f9c2e1b-4d5f-46a7-9b21-8c0d1e2f3a4b','url':'https://api.example.com/v1/items/1042','sha':'9e107d9d372bb6826bd81d3542a419d6','name':'Desk lamp','price':42} ";
const echoText = values['message-bytes'] === '2' ? 'hi' : RECORD.repeat(Math.ceil(Number(values['message-bytes']) / RECORD.length)).slice(0, Number(values['message-bytes']));
const echo = { message: echoText };
const subjects: Subject[] = [{ label: 'floor stdio (server-everything)', kind: 'stdio-floor', revision: 'stdio', run: stdioFloorFromProcess }];
for (const revision of REVISIONS) {
  const raw = (url: string, tool: string, args: Record<string, unknown>, expect: string, bearer?: string) => (callers: number, count: number) =>
    rawLoad({ url, callers, calls: count, warmup: Math.min(1000, count), revision, tool, arguments: args, expect, bearer });
  subjects.push(
    { label: 'floor http', kind: 'floor', revision, cpuMicros: floor.cpuMicros, run: raw(floor.url, 'echo', echo, 'Echo: hi') },
    { label: 'floor fastify', kind: 'fastify-floor', revision, cpuMicros: fastifyFloor.cpuMicros, run: raw(fastifyFloor.url, 'echo', echo, 'Echo: hi') },
    {
      label: 'floor stdio proxy (server-everything)',
      kind: 'proxy-floor',
      revision,
      cpuMicros: proxyFloor.cpuMicros,
      childCpuMicros: proxyFloor.childrenCpuMicros,
      run: raw(proxyFloor.url, 'echo', echo, `Echo: ${echoText}`),
    },
  );
  if (httpChild) subjects.push({ label: 'http child direct', kind: 'direct', revision, run: raw(httpChild.url, 'echo', { text: 'hi' }, 'hi') });
  if (bare) subjects.push({ label: 'http child via bare proxy', kind: 'bare', revision, run: raw(bare.url, 'echo', { text: 'hi' }, 'hi') });
  for (const { setting, label, hub, token } of hubs) {
    const at = (path: string) => `${hub.url}${path}`;
    const { cpuMicros, childrenCpuMicros: childCpuMicros } = hub;
    const hubSubjects: Subject[] = [
      { label: `hub /everything/mcp [${label}]`, kind: 'hub', revision, setting, hub, cpuMicros, childCpuMicros, run: raw(at('/everything/mcp'), 'echo', echo, `Echo: ${echoText}`, token) },
      {
        label: `hub /hub call_tool [${label}]`,
        kind: 'hub',
        revision,
        setting,
        hub,
        cpuMicros,
        childCpuMicros,
        run: raw(at('/hub'), 'call_tool', { server: 'everything', tool: 'echo', arguments: echo }, `Echo: ${echoText}`, token),
      },
      ...(httpChild
        ? [
            { label: `hub /web/mcp [${label}]`, kind: 'hub' as const, revision, setting, hub, cpuMicros, childCpuMicros, run: raw(at('/web/mcp'), 'echo', { text: 'hi' }, 'hi', token) },
            {
              label: `hub /hub call_tool web [${label}]`,
              kind: 'hub' as const,
              revision,
              setting,
              hub,
              cpuMicros,
              childCpuMicros,
              run: raw(at('/hub'), 'call_tool', { server: 'web', tool: 'echo', arguments: { text: 'hi' } }, 'hi', token),
            },
          ]
        : []),
    ];
    subjects.push(...hubSubjects.filter((subject) => values.only === undefined || subject.label.includes(values.only)));
  }
}

interface Measured {
  figures: RawFigures | LoadFigures;
  /** The serving process's CPU per call (every thread), in microseconds: the hub's, or a floor's. */
  cpuUs?: number;
  /** The stdio child's CPU per call, in microseconds. */
  childCpuUs?: number;
  logLinesPerCall?: number;
}

async function measure(subject: Subject, callers: number, count: number): Promise<Measured> {
  const { hub, cpuMicros, childCpuMicros } = subject;
  if (!cpuMicros) return { figures: await subject.run(callers, count) };
  const [cpu, childCpu, lines] = [cpuMicros(), childCpuMicros?.(), hub?.logLines()];
  const figures = await subject.run(callers, count);
  // The log is read from a pipe: what the round wrote has arrived once the hub is idle again.
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Warm-up calls (and the handshake) are in the CPU and the log too.
  const made = count + Math.min(1000, count);
  return {
    figures,
    cpuUs: (cpuMicros() - cpu) / made,
    ...(childCpuMicros && childCpu !== undefined && { childCpuUs: (childCpuMicros() - childCpu) / made }),
    ...(hub && lines !== undefined && { logLinesPerCall: (hub.logLines() - lines) / made }),
  };
}

interface Row {
  subject: Subject;
  callers: number;
  best: Measured;
  /** Every round, in order: a setting is weighed against `default` round by round (the two measured within one round, not rounds apart). */
  rounds: Measured[];
  callsPerSecondRange: [number, number];
}

const rows: Row[] = [];
for (const callers of callerCounts) {
  for (const subject of subjects) await measure(subject, callers, 500);
  const measured = new Map<Subject, Measured[]>(subjects.map((subject) => [subject, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const subject of subjects) measured.get(subject)?.push(await measure(subject, callers, calls));
  }
  for (const [subject, all] of measured) {
    const best = all.reduce((a, b) => (callers === 1 ? (b.figures.p50Ms < a.figures.p50Ms ? b : a) : b.figures.callsPerSecond > a.figures.callsPerSecond ? b : a));
    const speeds = all.map(({ figures }) => figures.callsPerSecond);
    rows.push({ subject, callers, best, rounds: all, callsPerSecondRange: [Math.min(...speeds), Math.max(...speeds)] });
  }
}
// Allocation per call, after the CPU rounds (the inspector, once started, stays).
const allocationCalls = Number(values['allocation-calls']);
const allocations = new Map<Subject, Allocation>();
const floors: Partial<Record<Kind, PortServer>> = { floor, 'fastify-floor': fastifyFloor, 'proxy-floor': proxyFloor };
if (allocationCalls > 0) {
  // The floors' too: the stdio proxy floor's is what a call allocates in any gateway in front of a stdio child, beside
  // which a hub road's is read; the HTTP and Fastify floors' say what of it is Node's HTTP and what Fastify adds.
  const links = new Map<BenchHubBin | PortServer, InspectorLink>();
  for (const subject of subjects) {
    const served = subject.kind === 'hub' ? subject.hub : floors[subject.kind];
    if (!served) continue;
    const link = links.get(served) ?? (await served.inspector());
    links.set(served, link);
    const made = allocationCalls + Math.min(1000, allocationCalls);
    allocations.set(subject, await allocationPerCall(link, made, () => subject.run(16, allocationCalls), Number(values['allocation-top'])));
  }
  for (const link of links.values()) await link.close();
}
for (const { hub } of hubs) await hub.close();
bare?.server.close();
httpChild?.stop();
floor.stop();
fastifyFloor.stop();
proxyFloor.stop();

const find = (callers: number, kind: Kind, revision: Subject['revision']) => rows.find((row) => row.callers === callers && row.subject.kind === kind && row.subject.revision === revision);
const ratio = (a: number, b: number | undefined) => (b === undefined ? Number.NaN : Number((a / b).toFixed(2)));
const pad = (value: unknown, width: number) => String(value).padStart(width);
const fixed = (value: number | undefined, digits: number) => (value === undefined ? '' : value.toFixed(digits));

console.log(
  `carriage: ${calls} calls a round, best of ${rounds} rounds${
    leastPrivilege ? ', least privilege on (bound token, pinned tools)' : ''
  }; "x floor" is calls/s over the HTTP floor's, "+p50" the p50 added over it; cpu us: the serving process's (a floor's, the hub's; child: its stdio child's) CPU per call, "x bare cpu" the hub's (or a floor's) over the HTTP floor's, "x proxy cpu" the hub's over the stdio proxy floor's`,
);
for (const callers of callerCounts) {
  console.log(`\n${callers} caller${callers === 1 ? '' : 's'}`);
  console.log(floorsOverBare(callers));
  console.log(
    `${'subject'.padEnd(44)}${'revision'.padEnd(12)}${pad('calls/s', 8)} ${'[range]'.padEnd(14)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('cpu us', 8)}${pad('child', 7)}${pad('log/call', 9)}${pad(
      'x floor',
      8,
    )}${pad('+p50', 8)}${pad('x bare', 8)}${pad('x bare cpu', 11)}${pad('x proxy cpu', 12)}${pad('client us', 10)}`,
  );
  for (const row of rows.filter((candidate) => candidate.callers === callers)) {
    const { best, subject } = row;
    const httpFloor = subject.revision === 'stdio' ? undefined : find(callers, 'floor', subject.revision)?.best;
    const overFloor = subject.kind === 'floor' || !httpFloor ? '' : ratio(best.figures.callsPerSecond, httpFloor.figures.callsPerSecond);
    const added = subject.kind === 'floor' || !httpFloor ? '' : (best.figures.p50Ms - httpFloor.figures.p50Ms).toFixed(3);
    const clientUs = 'clientCpuUsPerCall' in best.figures ? best.figures.clientCpuUsPerCall.toFixed(1) : '';
    const bareProxy = subject.revision === 'stdio' ? undefined : find(callers, 'bare', subject.revision)?.best;
    const overBare = subject.kind === 'hub' && subject.label.includes('web') && bareProxy ? ratio(best.figures.callsPerSecond, bareProxy.figures.callsPerSecond) : '';
    const overBareCpu = subject.kind !== 'floor' && best.cpuUs !== undefined && httpFloor?.cpuUs !== undefined ? ratio(best.cpuUs, httpFloor.cpuUs) : '';
    const proxyFloorCpu = subject.revision === 'stdio' ? undefined : find(callers, 'proxy-floor', subject.revision)?.best.cpuUs;
    const overProxyCpu = subject.kind === 'hub' && !subject.label.includes('web') && best.cpuUs !== undefined && proxyFloorCpu !== undefined ? ratio(best.cpuUs, proxyFloorCpu) : '';
    console.log(
      `${subject.label.padEnd(44)}${subject.revision.padEnd(12)}${pad(best.figures.callsPerSecond, 8)} ${`[${row.callsPerSecondRange.join('-')}]`.padEnd(14)}${pad(
        best.figures.p50Ms.toFixed(3),
        8,
      )}${pad(best.figures.p99Ms.toFixed(3), 8)}${pad(fixed(best.cpuUs, 1), 8)}${pad(fixed(best.childCpuUs, 1), 7)}${pad(fixed(best.logLinesPerCall, 2), 9)}${pad(overFloor, 8)}${pad(added, 8)}${pad(
        overBare,
        8,
      )}${pad(overBareCpu, 11)}${pad(overProxyCpu, 12)}${pad(clientUs, 10)}`,
    );
  }
}

// The load client's ceiling: what one client process could drive, from its CPU per call against the floor.
const floorRows = rows.filter((row) => row.subject.kind === 'floor');
const clientUs = Math.max(...floorRows.map((row) => (row.best.figures as RawFigures).clientCpuUsPerCall));
const ceiling = Math.round(1e6 / clientUs);
const hubRows = rows.filter((row) => row.subject.kind === 'hub');
const bestHub = Math.max(...hubRows.map((row) => row.best.figures.callsPerSecond));
console.log(
  `\nload client: at most ${clientUs.toFixed(1)} us of its CPU per call against the floor, a ceiling of ${ceiling} calls/s for one client process; the best hub figure is ${bestHub} calls/s (${(
    ceiling / bestHub
  ).toFixed(1)}x below the ceiling)`,
);

// Each setting beside `default` on the same road and caller count: what the guardrails cost per
// call, and how this checkout compares with the baseline's.
const comparisons: string[] = [];
for (const row of hubRows) {
  const { subject, callers, best } = row;
  const label = /\[(.*)\]$/.exec(subject.label)?.[1];
  if (label !== 'guardrails' && label !== 'default, baseline') continue;
  const reference = hubRows.find((other) => other.callers === callers && other.subject.revision === subject.revision && other.subject.label === subject.label.replace(`[${label}]`, '[default]'));
  if (!reference || best.cpuUs === undefined || reference.best.cpuUs === undefined) continue;
  const road = `${subject.label.replace(` [${label}]`, '')} ${subject.revision}, ${callers} caller${callers === 1 ? '' : 's'}`;
  const perRound = addedPerRound(row, reference);
  comparisons.push(
    label === 'guardrails'
      ? `guard-secrets + output-limit on ${road}: +${(best.cpuUs - reference.best.cpuUs).toFixed(1)} us of hub CPU per call (${reference.best.cpuUs.toFixed(1)} to ${best.cpuUs.toFixed(1)}: +${(
          ((best.cpuUs - reference.best.cpuUs) / reference.best.cpuUs) *
          100
        ).toFixed(0)}%), p50 +${(best.figures.p50Ms - reference.best.figures.p50Ms).toFixed(3)} ms; round by round ${perRound.map((added) => `${(added * 100).toFixed(0)}%`).join(', ')}, median ${(
          percentile(
            [...perRound].sort((a, b) => a - b),
            0.5,
          ) * 100
        ).toFixed(0)}%`
      : `this checkout vs the baseline on ${road}: hub CPU per call ${reference.best.cpuUs.toFixed(1)} vs ${best.cpuUs.toFixed(1)} us, calls/s ${reference.best.figures.callsPerSecond} vs ${
          best.figures.callsPerSecond
        }, p50 ${reference.best.figures.p50Ms.toFixed(3)} vs ${best.figures.p50Ms.toFixed(3)} ms`,
  );
}
if (comparisons.length > 0) console.log(`\n${comparisons.join('\n')}`);

/**
 * What a setting adds to `default`'s hub CPU per call, round by round: each round measures
 * every subject in turn, so a round's two figures were taken within that round, under the
 * same load from elsewhere; the best rounds picked for each alone may come from different
 * rounds (issue 54.4's road read 26% and 30% in two runs that way).
 */
function addedPerRound(row: Row, reference: Row): number[] {
  return row.rounds.flatMap((measured, round) => {
    const base = reference.rounds[round]?.cpuUs;
    return measured.cpuUs === undefined || base === undefined ? [] : [measured.cpuUs / base - 1];
  });
}

// Issue 57's figures, per road and revision: hub CPU per call over the stdio proxy floor's at 16 callers, and allocation per call.
if (allocations.size > 0 || callerCounts.includes(16)) {
  console.log(`\nper road, 16 callers: hub CPU per call / stdio proxy floor's CPU per call (same run), and allocation per call (sampling heap profiler, ${allocationCalls} calls + warm-up)`);
  for (const subject of subjects.filter((candidate) => (candidate.kind === 'hub' && !candidate.label.includes('web')) || candidate.kind in floors)) {
    const row = rows.find((candidate) => candidate.subject === subject && candidate.callers === 16);
    const proxy = find(16, 'proxy-floor', subject.revision)?.best.cpuUs;
    const cpu = row?.best.cpuUs;
    const allocation = allocations.get(subject);
    const floorSubject = subjects.find((candidate) => candidate.kind === 'proxy-floor' && candidate.revision === subject.revision);
    const floorAllocation = floorSubject && allocations.get(floorSubject);
    const overFloor = subject.kind === 'hub' && allocation && floorAllocation ? ` (the floor's + ${((allocation.bytesPerCall - floorAllocation.bytesPerCall) / 1024).toFixed(1)} KB)` : '';
    console.log(
      `${subject.label.padEnd(44)}${subject.revision.padEnd(12)}${
        cpu === undefined || proxy === undefined ? '' : `${cpu.toFixed(1)} / ${proxy.toFixed(1)} us = ${(cpu / proxy).toFixed(2)}x`.padEnd(28)
      }${allocation ? `${(allocation.bytesPerCall / 1024).toFixed(1)} KB/call${overFloor}` : ''}`,
    );
    for (const { frame, bytesPerCall } of allocation?.top ?? []) console.log(`    ${(bytesPerCall / 1024).toFixed(2).padStart(6)} KB  ${frame}`);
  }
}

// The issue's targets, each with the figures it was judged on.
const verdicts: string[] = [verdict(`load client ceiling >= 3x the best hub figure (${ceiling} vs ${bestHub})`, ceiling >= 3 * bestHub)];
for (const row of hubRows) {
  const { subject, callers, best } = row;
  const httpFloor = find(callers, 'floor', subject.revision)?.best;
  if (!httpFloor || subject.setting !== 'default' || subject.label.includes('web') || subject.label.includes('baseline')) continue;
  const name = `${subject.label} ${subject.revision}`;
  if (callers === 16) {
    verdicts.push(
      verdict(
        `${name}: x floor >= 0.5 at 16 callers (${ratio(best.figures.callsPerSecond, httpFloor.figures.callsPerSecond)})`,
        ratio(best.figures.callsPerSecond, httpFloor.figures.callsPerSecond) >= 0.5,
      ),
    );
    // Issue 42: a proxied call costs at most 2x a bare server's request, a `/hub` call at most 2.2x.
    const most = subject.label.includes('/hub ') ? 2.2 : 2.0;
    const overBareCpu = best.cpuUs !== undefined && httpFloor.cpuUs !== undefined ? best.cpuUs / httpFloor.cpuUs : Infinity;
    verdicts.push(
      verdict(`${name}: hub CPU per call <= ${most}x the bare server's at 16 callers (${fixed(best.cpuUs, 1)} vs ${fixed(httpFloor.cpuUs, 1)} us, ${overBareCpu.toFixed(2)}x)`, overBareCpu <= most),
    );
    const without = hubRows.find(
      (other) =>
        other.callers === 16 &&
        other.subject.setting === 'no-observability' &&
        other.subject.revision === subject.revision &&
        other.subject.label === subject.label.replace('[default]', '[no-observability]'),
    );
    if (without?.best.cpuUs !== undefined && best.cpuUs !== undefined) {
      const over = best.cpuUs / without.best.cpuUs - 1;
      verdicts.push(verdict(`${name}: observability on vs off, hub CPU per call within 5% (${(over * 100).toFixed(1)}%)`, over <= 0.05));
    }
  }
  if (callers === 1) {
    const added = best.figures.p50Ms - httpFloor.figures.p50Ms;
    verdicts.push(verdict(`${name}: +p50 <= 0.15 ms at one caller (${added.toFixed(3)})`, added <= 0.15));
  }
  const allocation = allocations.get(subject);
  if (callers === 16 && allocation) verdicts.push(verdict(`${name}: at most 15 KB allocated per call (${(allocation.bytesPerCall / 1024).toFixed(1)} KB)`, allocation.bytesPerCall <= 15 * 1024));
  const proxyFloor = find(callers, 'proxy-floor', subject.revision)?.best;
  if (callers === 16 && best.cpuUs !== undefined && proxyFloor?.cpuUs !== undefined) {
    const over = best.cpuUs / proxyFloor.cpuUs;
    verdicts.push(verdict(`${name}: hub CPU per call <= 1.5x the stdio proxy floor's at 16 callers (${best.cpuUs.toFixed(1)} vs ${proxyFloor.cpuUs.toFixed(1)} us, ${over.toFixed(2)}x)`, over <= 1.5));
  }
  if (best.logLinesPerCall !== undefined)
    verdicts.push(verdict(`${name}: one log line per call at ${callers} caller(s) (${best.logLinesPerCall.toFixed(2)})`, Math.abs(best.logLinesPerCall - 1) < 0.01));
}
console.log(`\ntargets\n${verdicts.join('\n')}`);

/**
 * Each floor's CPU per request over the bare HTTP floor's at `callers`, by revision, and the
 * estimate of Fastify in front of a pipe: the stdio proxy floor plus what Fastify adds to
 * the bare floor.
 */
function floorsOverBare(callers: number): string {
  const cpu = (kind: Kind, revision: Revision) => find(callers, kind, revision)?.best.cpuUs ?? Number.NaN;
  const over = (cpuOf: (revision: Revision) => number) => REVISIONS.map((revision) => `${(cpuOf(revision) / cpu('floor', revision)).toFixed(2)}x ${revision}`).join(', ');
  return [
    `floors' CPU per request over the HTTP floor's: fastify ${over((revision) => cpu('fastify-floor', revision))}`,
    `stdio proxy ${over((revision) => cpu('proxy-floor', revision))}`,
    `fastify + pipe (stdio proxy + fastify - http, an estimate) ${over((revision) => cpu('proxy-floor', revision) + cpu('fastify-floor', revision) - cpu('floor', revision))}`,
  ].join('; ');
}

function verdict(text: string, met: boolean): string {
  return `${met ? 'met    ' : 'not met'}  ${text}`;
}
