// tools/call through the hub against the floors of this machine, in one run:
//
// - the bare HTTP floor: a `node:http` server answering a fixed tool result (http-floor.ts),
//   driven by the same load client as everything else;
// - the stdio floor: server-everything's `echo` straight over its own stdio (stdio-floor.ts);
// - the HTTP child (http-child.ts) called directly and through a bare forwarding proxy
//   (bare-proxy.ts), the floor of any extra HTTP hop;
// - the hub (this process) with bearer verification on (oauth-as, an API token) and the
//   per-client limits on, in front of server-everything as a keepAlive stdio child
//   (`everything`) and of the HTTP child (`web`): `/<name>/mcp` and `/hub` `call_tool`, on
//   both revisions.
//
// At 1 and 16 callers in a closed loop. The floors, the children and the callers each run
// in their own process. Every subject is measured once per round, in turn, so load from
// elsewhere hits them alike; of the rounds, the best is kept (lowest p50 at one caller,
// highest calls/s beyond) and the range of calls/s is printed beside it. Hub figures are
// given as a ratio to the HTTP floor of the same revision and caller count (and, with the
// HTTP child, to the bare proxy); the hub's and the bare proxy's CPU per call is this
// process's, measured around their rounds.
//
// Run: npx tsc -p . && node dist/bench/carriage.js [--calls 3000] [--rounds 3] [--callers 1,16] [--only <text>]
// `--only` keeps the subjects whose label contains the text (floors always run, for the
// ratios); `node --cpu-prof dist/bench/carriage.js --only hub` profiles the hub alone.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ApiTokens } from '../plugins/oauth-as/api-tokens.js';
import { collections } from '../plugins/oauth-as/records.js';
import { startBareProxy } from './bare-proxy.js';
import { startBenchHub } from './bench-hub.js';
import { loadFromProcess, startHttpChild, startHttpFloor, stdioFloorFromProcess, type LoadFigures } from './measure.js';

const { values, positionals } = parseArgs({
  options: { calls: { type: 'string' }, rounds: { type: 'string', default: '3' }, callers: { type: 'string', default: '1,16' }, only: { type: 'string' } },
  allowPositionals: true,
});
const calls = Number(values.calls ?? positionals[0] ?? '3000');
const rounds = Number(values.rounds);
const callerCounts = values.callers.split(',').map(Number);
const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
type Revision = (typeof REVISIONS)[number];

const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const floor = await startHttpFloor();
const child = await startHttpChild();
// CARRIAGE_OBSERVABILITY=off measures the hub without the observability plugin (metrics and the call log).
const observability = process.env.CARRIAGE_OBSERVABILITY !== 'off';
// CARRIAGE_LEAST_PRIVILEGE=on binds the token to the endpoints it calls and its /hub reach to
// both servers, and pins both servers' tools (approved as first seen): every call then pays the resource check and the pin check.
const leastPrivilege = process.env.CARRIAGE_LEAST_PRIVILEGE === 'on';
const bare = await startBareProxy(child.url);
const benchHub = await startBenchHub(
  {
    plugins: { 'oauth-as': true, 'map-tools': false, observability, ...(leastPrivilege && { 'tool-pinning': { allServers: true, approveFirstSight: true } }) },
    mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'], keepAlive: true }, web: { type: 'http', url: child.url } },
  },
  // The limit stays on: counted for every call, high enough never to refuse one here.
  { HUB_PASSWORD: 'bench', CLIENT_CALLS_PER_MINUTE: '100000000' },
);
for (const name of ['everything', 'web']) await benchHub.hub.children.get(name)?.ensureUp();
const reach = leastPrivilege ? { resources: ['everything', 'web', 'hub'], servers: ['everything', 'web'] } : {};
const { token } = await new ApiTokens(collections(benchHub.hub.store), benchHub.hub.settings.baseUrl).mint('carriage bench', 3600, reach);

type Kind = 'floor' | 'direct' | 'bare' | 'hub';
interface Subject {
  label: string;
  kind: Kind;
  revision: Revision | 'stdio';
  /** The child behind it, for hub subjects. */
  child?: 'stdio' | 'http';
  run(callers: number, count: number): Promise<LoadFigures>;
}

const echoStdio = { message: 'hi' };
const echoHttp = { text: 'hi' };
const subjects: Subject[] = [{ label: 'floor stdio (server-everything)', kind: 'floor', revision: 'stdio', run: stdioFloorFromProcess }];
for (const revision of REVISIONS) {
  const load = (url: string, tool: string, args: Record<string, unknown>, bearer?: string) => (callers: number, count: number) => loadFromProcess(url, callers, count, tool, args, revision, bearer);
  const hub = (path: string) => `${benchHub.url}${path}`;
  subjects.push(
    { label: 'floor http', kind: 'floor', revision, run: load(floor.url, 'echo', echoStdio) },
    { label: 'http child direct', kind: 'direct', revision, run: load(child.url, 'echo', echoHttp) },
    { label: 'http child via bare proxy', kind: 'bare', revision, run: load(bare.url, 'echo', echoHttp) },
    { label: 'hub stdio /everything/mcp', kind: 'hub', child: 'stdio', revision, run: load(hub('/everything/mcp'), 'echo', echoStdio, token) },
    { label: 'hub stdio /hub call_tool', kind: 'hub', child: 'stdio', revision, run: load(hub('/hub'), 'call_tool', { server: 'everything', tool: 'echo', arguments: echoStdio }, token) },
    { label: 'hub http /web/mcp', kind: 'hub', child: 'http', revision, run: load(hub('/web/mcp'), 'echo', echoHttp, token) },
    { label: 'hub http /hub call_tool', kind: 'hub', child: 'http', revision, run: load(hub('/hub'), 'call_tool', { server: 'web', tool: 'echo', arguments: echoHttp }, token) },
  );
}
const chosen = subjects.filter((subject) => subject.kind === 'floor' || values.only === undefined || subject.label.includes(values.only));

interface Measured extends LoadFigures {
  /** This process's CPU per call (the hub's or the bare proxy's); absent for subjects in other processes. */
  cpuMsPerCall?: number;
}

async function measure(subject: Subject, callers: number, count: number): Promise<Measured> {
  const before = process.cpuUsage();
  const figures = await subject.run(callers, count);
  if (subject.kind !== 'hub' && subject.kind !== 'bare') return figures;
  const used = process.cpuUsage(before);
  return { ...figures, cpuMsPerCall: Number(((used.user + used.system) / 1000 / figures.calls).toFixed(3)) };
}

interface Row {
  subject: Subject;
  callers: number;
  best: Measured;
  callsPerSecondRange: [number, number];
}

const rows: Row[] = [];
for (const callers of callerCounts) {
  for (const subject of chosen) await measure(subject, callers, 300);
  const measured = new Map<Subject, Measured[]>(chosen.map((subject) => [subject, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const subject of chosen) measured.get(subject)?.push(await measure(subject, callers, calls));
  }
  for (const [subject, figures] of measured) {
    const best = figures.reduce((a, b) => (callers === 1 ? (b.p50Ms < a.p50Ms ? b : a) : b.callsPerSecond > a.callsPerSecond ? b : a));
    const speeds = figures.map((figure) => figure.callsPerSecond);
    rows.push({ subject, callers, best, callsPerSecondRange: [Math.min(...speeds), Math.max(...speeds)] });
  }
}
await benchHub.close();
bare.server.close();
child.stop();
floor.stop();

const find = (callers: number, kind: Kind, revision: Row['subject']['revision']) => rows.find((row) => row.callers === callers && row.subject.kind === kind && row.subject.revision === revision);
const ratio = (a: number, b: number | undefined) => (b === undefined ? Number.NaN : Number((a / b).toFixed(2)));
const pad = (value: unknown, width: number) => String(value).padStart(width);

console.log(
  `carriage: ${calls} calls a round, best of ${rounds} rounds, observability ${observability ? 'on' : 'off'}${leastPrivilege ? ', least privilege on (bound token, pinned tools)' : ''}; "x floor" is calls/s over the HTTP floor's, "+p50" the p50 added over it`,
);
for (const callers of callerCounts) {
  console.log(`\n${callers} caller${callers === 1 ? '' : 's'}`);
  console.log(`${'subject'.padEnd(34)}${'revision'.padEnd(12)}${pad('calls/s', 8)} ${'[range]'.padEnd(13)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('cpu ms', 8)}${pad('x floor', 9)}${pad('+p50', 8)}${pad('x bare', 8)}`);
  for (const row of rows.filter((candidate) => candidate.callers === callers)) {
    const { best, subject } = row;
    const httpFloor = subject.revision === 'stdio' ? undefined : find(callers, 'floor', subject.revision)?.best;
    const bareProxy = subject.revision === 'stdio' ? undefined : find(callers, 'bare', subject.revision)?.best;
    const overFloor = subject.kind === 'floor' || !httpFloor ? '' : ratio(best.callsPerSecond, httpFloor.callsPerSecond);
    const added = subject.kind === 'floor' || !httpFloor ? '' : (best.p50Ms - httpFloor.p50Ms).toFixed(3);
    const overBare = subject.child === 'http' && bareProxy ? ratio(best.callsPerSecond, bareProxy.callsPerSecond) : '';
    console.log(
      `${subject.label.padEnd(34)}${subject.revision.padEnd(12)}${pad(best.callsPerSecond, 8)} ${`[${row.callsPerSecondRange.join('-')}]`.padEnd(13)}${pad(best.p50Ms.toFixed(3), 8)}${pad(best.p99Ms.toFixed(3), 8)}${pad(best.cpuMsPerCall?.toFixed(3) ?? '', 8)}${pad(overFloor, 9)}${pad(added, 8)}${pad(overBare, 8)}`,
    );
  }
}

// The issue's targets, each with the figures it was judged on.
const verdicts: string[] = [];
const hubRows = rows.filter((row) => row.subject.kind === 'hub');
for (const row of hubRows) {
  const { subject, callers, best } = row;
  const revision = subject.revision as Revision;
  const httpFloor = find(callers, 'floor', revision)?.best;
  if (!httpFloor) continue;
  if (callers === 16 && subject.child === 'stdio') verdicts.push(verdict(`${subject.label} ${revision}: x floor >= 0.5`, ratio(best.callsPerSecond, httpFloor.callsPerSecond) >= 0.5));
  if (callers === 16 && subject.child === 'http') {
    const bareProxy = find(callers, 'bare', revision)?.best;
    verdicts.push(verdict(`${subject.label} ${revision}: x bare proxy >= 0.9`, ratio(best.callsPerSecond, bareProxy?.callsPerSecond) >= 0.9));
  }
  if (callers === 1 && subject.child === 'stdio') verdicts.push(verdict(`${subject.label} ${revision}: +p50 <= 0.3 ms at one caller`, best.p50Ms - httpFloor.p50Ms <= 0.3));
}
if (verdicts.length > 0) console.log(`\ntargets\n${verdicts.join('\n')}`);

function verdict(text: string, met: boolean): string {
  return `${met ? 'met    ' : 'not met'}  ${text}`;
}
