// The top of a V8 CPU profile (a `.cpuprofile`, as `--cpu-prof` writes it, e.g. carriage.js's
// `--hub-node-args="--cpu-prof --cpu-prof-dir=<dir>"`): each function's self time as a share
// of the busy time (everything but `(idle)`), largest first, the function named with its file
// (under node_modules/ or dist/) and line. Shares, not times: they can be read from a profile
// taken on a busy machine.
//   node dist/bench/cpu-profile-summary.js <file.cpuprofile> [--top 30]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The parts of the `.cpuprofile` JSON (the DevTools protocol's `Profiler.Profile`) this summary reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

export interface CpuShare {
  frame: string;
  /** Self time over the busy time, 0 to 1. */
  share: number;
}

export interface CpuSummary {
  /** Sampled time that was not `(idle)`, in milliseconds. */
  busyMs: number;
  /** Every function with self time, largest share first. */
  shares: CpuShare[];
}

export function summarizeCpuProfile(profile: CpuProfile): CpuSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, frameName(node.callFrame)]));
  const selfMicros = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, at) => {
    const frame = frames.get(id) ?? '(unknown)';
    // A sample's time is the delta to the next sample (V8's own reading of its profile).
    const micros = profile.timeDeltas[at + 1] ?? 0;
    if (frame === '(idle)') return;
    busy += micros;
    selfMicros.set(frame, (selfMicros.get(frame) ?? 0) + micros);
  });
  const shares = [...selfMicros].map(([frame, micros]) => ({ frame, share: busy === 0 ? 0 : micros / busy })).sort((a, b) => b.share - a.share);
  return { busyMs: busy / 1000, shares };
}

export function formatCpuSummary(summary: CpuSummary, top: number): string {
  return [`busy ${summary.busyMs.toFixed(0)} ms`, ...summary.shares.slice(0, top).map(({ frame, share }) => `${(share * 100).toFixed(2).padStart(6)} %  ${frame}`)].join('\n');
}

function frameName({ functionName, url, lineNumber }: CpuProfile['nodes'][number]['callFrame']): string {
  const name = functionName || '(anonymous)';
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)' || url === '') return name;
  return `${name} (${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1})`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
  const [file] = positionals;
  if (file === undefined) {
    process.stderr.write('Usage: node dist/bench/cpu-profile-summary.js <file.cpuprofile> [--top 30]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatCpuSummary(summarizeCpuProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile), Number(values.top))}\n`);
}
