// The top of a V8 heap snapshot: self size by kind of node (code, strings, objects, arrays,
// closures, buffers, ...), the largest constructors by self size, and how much of the strings
// is the source text of loaded modules. Self sizes only: they add up to the heap the snapshot
// holds, while retained sizes need a dominator tree and overlap.
// Module source text is a string that a V8 Script holds as its `source` (an internal edge
// named "source" from a `code` node): exact, where a size rule (every string over 20 KB)
// would count any large string a program holds as source.
// Used by memory-under-load.ts after each snapshot it takes; on its own, after a build:
//   node dist/bench/heap-summary.js <file.heapsnapshot> [--top 20]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The parts of the `.heapsnapshot` JSON this summary reads (V8's format, described in its own `meta`). */
interface HeapSnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: unknown[]; edge_fields: string[]; edge_types: unknown[] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapBucket {
  /** `strings` (all of V8's string kinds), `buffers` (array buffers' backing stores), else V8's node type. */
  kind: string;
  bytes: number;
  count: number;
}

export interface HeapConstructor {
  type: string;
  name: string;
  bytes: number;
  count: number;
}

export interface HeapSummary {
  nodes: number;
  /** The sum of every node's self size: the heap the snapshot holds. */
  totalBytes: number;
  /** Largest first; their bytes add up to `totalBytes`. */
  buckets: HeapBucket[];
  /** By V8 node type and name (an object's constructor, a closure's function, a code object's script), largest first; every string counts as `(string)`. */
  constructors: HeapConstructor[];
  moduleSource: { bytes: number; count: number };
}

const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);
/** V8 names the native node of an ArrayBuffer's (and so a Node Buffer's) backing store so. */
const BUFFER_DATA = 'system / JSArrayBufferData';

const field = (fields: string[], name: string): number => {
  const at = fields.indexOf(name);
  if (at === -1) throw new Error(`not a V8 heap snapshot: its nodes or edges have no "${name}" field`);
  return at;
};

const typeNames = (types: unknown[], what: string): string[] => {
  const names = types[0];
  if (!Array.isArray(names)) throw new Error(`not a V8 heap snapshot: no ${what} type names`);
  return names.map(String);
};

export function summarizeHeapSnapshot(snapshot: HeapSnapshotFile): HeapSummary {
  const { meta } = snapshot.snapshot;
  const { nodes, edges, strings } = snapshot;
  const nodeTypes = typeNames(meta.node_types, 'node');
  const edgeTypes = typeNames(meta.edge_types, 'edge');
  const nodeWidth = meta.node_fields.length;
  const edgeWidth = meta.edge_fields.length;
  const nodeType = field(meta.node_fields, 'type');
  const nodeName = field(meta.node_fields, 'name');
  const nodeSize = field(meta.node_fields, 'self_size');
  const nodeEdges = field(meta.node_fields, 'edge_count');
  const edgeType = field(meta.edge_fields, 'type');
  const edgeName = field(meta.edge_fields, 'name_or_index');
  const edgeTo = field(meta.edge_fields, 'to_node');
  const internal = edgeTypes.indexOf('internal');
  const code = nodeTypes.indexOf('code');

  const buckets = new Map<string, HeapBucket>();
  const constructors = new Map<string, HeapConstructor>();
  /** Offsets (in `nodes`) of the strings some Script holds as its source. */
  const sources = new Set<number>();
  let totalBytes = 0;
  let edge = 0;
  for (let node = 0; node < nodes.length; node += nodeWidth) {
    const type = nodeTypes[nodes[node + nodeType] as number] ?? 'unknown';
    const name = strings[nodes[node + nodeName] as number] ?? '';
    const size = nodes[node + nodeSize] as number;
    const edgeCount = nodes[node + nodeEdges] as number;
    totalBytes += size;
    const isString = STRING_TYPES.has(type);
    const kind = isString ? 'strings' : type === 'native' && name === BUFFER_DATA ? 'buffers' : type;
    const bucket = buckets.get(kind) ?? { kind, bytes: 0, count: 0 };
    bucket.bytes += size;
    bucket.count += 1;
    buckets.set(kind, bucket);
    const label = isString ? '(string)' : name.slice(0, 100) || '(no name)';
    const key = `${isString ? 'string' : type}\u0000${label}`;
    const entry = constructors.get(key) ?? { type: isString ? 'string' : type, name: label, bytes: 0, count: 0 };
    entry.bytes += size;
    entry.count += 1;
    constructors.set(key, entry);
    if (nodes[node + nodeType] === code) {
      for (let at = edge; at < edge + edgeCount * edgeWidth; at += edgeWidth) {
        if (edges[at + edgeType] === internal && strings[edges[at + edgeName] as number] === 'source') {
          const target = edges[at + edgeTo] as number;
          if (STRING_TYPES.has(nodeTypes[nodes[target + nodeType] as number] ?? '')) sources.add(target);
        }
      }
    }
    edge += edgeCount * edgeWidth;
  }
  let sourceBytes = 0;
  for (const target of sources) sourceBytes += nodes[target + nodeSize] as number;
  return {
    nodes: nodes.length / nodeWidth,
    totalBytes,
    buckets: [...buckets.values()].sort((a, b) => b.bytes - a.bytes),
    constructors: [...constructors.values()].sort((a, b) => b.bytes - a.bytes),
    moduleSource: { bytes: sourceBytes, count: sources.size },
  };
}

/**
 * Reads and summarises a `.heapsnapshot` file. A plain JSON.parse rather than a streaming
 * parser: the hub's snapshots are tens of MB, far below the string length V8 allows, and the
 * summary needs the whole node and edge arrays anyway.
 */
export function summarizeHeapSnapshotFile(file: string): HeapSummary {
  return summarizeHeapSnapshot(JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshotFile);
}

const mb = (bytes: number): string => (bytes / 1048576).toFixed(2).padStart(8);

export function formatHeapSummary(summary: HeapSummary, top = 20): string {
  const strings = summary.buckets.find((bucket) => bucket.kind === 'strings')?.bytes ?? 0;
  return [
    `heap snapshot: ${mb(summary.totalBytes).trim()} MB self size in ${summary.nodes} nodes`,
    '      MB    nodes  kind',
    ...summary.buckets.map((bucket) => `${mb(bucket.bytes)} ${String(bucket.count).padStart(8)}  ${bucket.kind}`),
    `strings ${mb(strings).trim()} MB, of which module source text ${mb(summary.moduleSource.bytes).trim()} MB (${summary.moduleSource.count} scripts' sources)`,
    `top ${top} by type and constructor (self size):`,
    ...summary.constructors.slice(0, top).map((entry) => `${mb(entry.bytes)} ${String(entry.count).padStart(8)}  ${entry.type}: ${entry.name}`),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '20' } } });
  const [file] = positionals;
  if (file === undefined) {
    process.stderr.write('Usage: node dist/bench/heap-summary.js <file.heapsnapshot> [--top 20]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatHeapSummary(summarizeHeapSnapshotFile(file), Number(values.top))}\n`);
}
