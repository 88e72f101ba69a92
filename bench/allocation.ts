// What a call allocates, from V8's sampling heap profiler in the measured process (through its
// inspector, inspector.ts): every sampled allocation of the window, those collected since
// included (`includeObjectsCollectedByMajorGC` and `...MinorGC`), summed and divided by the
// calls made meanwhile. Bytes allocated do not depend on the machine's load as CPU does: a
// figure taken on a busy machine is the quiet machine's. The sample's frames say where: the
// top entries are the functions allocating the most, itself (self) with the frame under it
// that is the hub's or a library's (where), so that a share can be put on a part of the call.
import type { InspectorLink } from './inspector.js';

interface ProfileNode {
  id: number;
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: ProfileNode[];
}
interface SamplingHeapProfile {
  head: ProfileNode;
  samples: Array<{ size: number; nodeId: number }>;
}

export interface Allocation {
  /** Bytes allocated per call, all sampled allocations of the window over the calls. */
  bytesPerCall: number;
  /** The allocating frames with the most bytes per call, largest first: "function (file:line)". */
  top: Array<{ frame: string; bytesPerCall: number }>;
}

/** One byte in this many is sampled on average: small enough for a few KB per call over a few thousand calls. */
const SAMPLING_INTERVAL = 512;

/** Runs `work` (making `calls` calls) under the sampling heap profiler of the process behind `link`. */
export async function allocationPerCall(link: InspectorLink, calls: number, work: () => Promise<unknown>, topCount = 12): Promise<Allocation> {
  await link.call('HeapProfiler.enable');
  await link.call('HeapProfiler.startSampling', { samplingInterval: SAMPLING_INTERVAL, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  let profile: SamplingHeapProfile;
  try {
    await work();
  } finally {
    ({ profile } = await link.call<{ profile: SamplingHeapProfile }>('HeapProfiler.stopSampling'));
    await link.call('HeapProfiler.disable');
  }
  const byFrame = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, path: ProfileNode[]): void => {
    total += node.selfSize;
    if (node.selfSize > 0) {
      const key = `${frameName(node)}${whereName(path)}`;
      byFrame.set(key, (byFrame.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, [...path, node]);
  };
  walk(profile.head, []);
  const top = [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topCount)
    .map(([frame, bytes]) => ({ frame, bytesPerCall: bytes / calls }));
  return { bytesPerCall: total / calls, top };
}

function frameName({ callFrame }: ProfileNode): string {
  const file = callFrame.url.replace(/^.*\/(node_modules\/|dist\/)/, '');
  return `${callFrame.functionName || '(anonymous)'}${file ? ` (${file}:${callFrame.lineNumber + 1})` : ''}`;
}

/** The nearest caller frame in the hub's own code (dist/core, dist/plugins) above an allocation, if any. */
function whereName(path: ProfileNode[]): string {
  for (let at = path.length - 1; at >= 0; at -= 1) {
    const node = path[at] as ProfileNode;
    if (/\/dist\/(core|plugins)\//.test(node.callFrame.url)) return ` <- ${frameName(node)}`;
  }
  return '';
}
