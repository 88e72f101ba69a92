import { createReadStream } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { MAP_ERROR_CODES } from '../error-codes.js';
import { ExtractFault } from './extract-fault.js';
import { Growable } from './growable.js';
import { ProtoReader, readDeltas, WIRE_BYTES } from './protobuf.js';

export type Tags = Record<string, string>;
export type ElementKind = 'node' | 'way' | 'relation';
export const ELEMENT_KINDS: readonly ElementKind[] = ['node', 'way', 'relation'];

/** A box in degrees. */
export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** The format's limits: a blob header below 64 KiB, a blob below 32 MiB. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
/** Required features this reader understands; a file needing another is refused. */
const KNOWN_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

/**
 * The ids and tags of one kind of element in a block; tags are pairs of string-table
 * indices. Decoding writes the columns' arrays directly (see `reserve`): a call into the
 * shared `Growable` methods per element would cost more than the element itself.
 */
export class ElementColumns {
  count = 0;
  readonly ids = new Growable(Float64Array);
  /** Element i's tags are `tags[tagStart[i] .. tagStart[i + 1])`, key and value by turns. */
  readonly tagStart = new Growable(Uint32Array);
  readonly tags = new Growable(Uint32Array);

  clear(): void {
    this.count = 0;
    this.ids.clear();
    this.tagStart.clear();
    this.tagStart.push(0);
    this.tags.clear();
  }

  /** Whether one more element fits in the per-element columns without `reserve`. */
  get full(): boolean {
    return this.count + 2 > this.ids.data.length || this.count + 2 > this.tagStart.data.length;
  }

  /** Room for `extra` more elements in the per-element columns. */
  reserve(extra: number): void {
    this.ids.ensure(extra);
    this.tagStart.ensure(extra);
  }
}

export class NodeColumns extends ElementColumns {
  /** Coordinates in 1e-7 degrees (whole numbers; doubles keep the decoding loop monomorphic). */
  readonly lat = new Growable(Float64Array);
  readonly lon = new Growable(Float64Array);

  override clear(): void {
    super.clear();
    this.lat.clear();
    this.lon.clear();
  }
}

export class WayColumns extends ElementColumns {
  /** Way i's node ids are `refs[refStart[i] .. refStart[i + 1])`. */
  readonly refStart = new Growable(Uint32Array);
  readonly refs = new Growable(Float64Array);

  override clear(): void {
    super.clear();
    this.refStart.clear();
    this.refStart.push(0);
    this.refs.clear();
  }

  override get full(): boolean {
    return super.full || this.count + 2 > this.refStart.data.length;
  }

  override reserve(extra: number): void {
    super.reserve(extra);
    this.refStart.ensure(extra);
  }
}

export class RelationColumns extends ElementColumns {
  /** Relation i's members are `memberIds/memberKinds[memberStart[i] .. memberStart[i + 1])`; kinds index `ELEMENT_KINDS`. */
  readonly memberStart = new Growable(Uint32Array);
  readonly memberIds = new Growable(Float64Array);
  readonly memberKinds = new Growable(Uint8Array);

  override clear(): void {
    super.clear();
    this.memberStart.clear();
    this.memberStart.push(0);
    this.memberIds.clear();
    this.memberKinds.clear();
  }
}

/**
 * A decoded block as right-sized arrays in one buffer of its own, so it can be handed to
 * another thread (the buffer transferred, not copied) and the buffer handed back for the
 * next block: the string table's bytes, and per kind of element the ids, tags (pairs of
 * string-table indices) and what else the kind has. `ways.nodes` and `relations.positions`
 * are room for the references resolved to positions in file order (see `decode-worker.ts`).
 */
export interface BlockData {
  buffer: ArrayBuffer;
  strings: Uint8Array;
  /** String i is `strings[stringStart[i] .. stringEnd[i]]` as UTF-8. */
  stringStart: Uint32Array;
  stringEnd: Uint32Array;
  nodes: { ids: Float64Array; lat: Float64Array; lon: Float64Array; tagStart: Uint32Array; tags: Uint32Array };
  ways: { ids: Float64Array; tagStart: Uint32Array; tags: Uint32Array; refStart: Uint32Array; refs: Float64Array; nodes: Int32Array };
  relations: { ids: Float64Array; tagStart: Uint32Array; tags: Uint32Array; memberStart: Uint32Array; memberIds: Float64Array; memberKinds: Uint8Array; positions: Int32Array };
}

type Column = Float64Array | Uint32Array | Int32Array | Uint8Array;
type ColumnType = Float64ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

/** The columns of a packed block, in order (see `BlockData` for their meaning). */
const COLUMNS: readonly ColumnType[] = [
  Uint8Array,
  Uint32Array,
  Uint32Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Uint32Array,
  Uint32Array,
  Float64Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Float64Array,
  Int32Array,
  Float64Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Float64Array,
  Uint8Array,
  Int32Array,
];

/**
 * A block as it crosses between threads: one buffer and where each column lies in it
 * (byte offset and length, by turns). Plain numbers cost less to post than array views.
 */
export interface PackedBlock {
  buffer: ArrayBuffer;
  layout: number[];
}

/** The block's columns as views over its buffer. */
export function unpackBlock({ buffer, layout }: PackedBlock): BlockData {
  let next = 0;
  // Taken in the order packed: object literals evaluate in source order.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- each view's type is its BlockData field's; COLUMNS builds it in the packed order
  const take = <T extends Column>() => {
    const view = new COLUMNS[next]!(buffer, layout[2 * next], layout[2 * next + 1]);
    next++;
    return view as T;
  };
  return {
    buffer,
    strings: take(),
    stringStart: take(),
    stringEnd: take(),
    nodes: { ids: take(), lat: take(), lon: take(), tagStart: take(), tags: take() },
    ways: { ids: take(), tagStart: take(), tags: take(), refStart: take(), refs: take(), nodes: take() },
    relations: { ids: take(), tagStart: take(), tags: take(), memberStart: take(), memberIds: take(), memberKinds: take(), positions: take() },
  };
}

/** A block's string table, decoded entry by entry as the loader asks for them. */
export class BlockStrings {
  readonly #bytes: Buffer;

  constructor(private readonly data: BlockData) {
    this.#bytes = Buffer.from(data.strings.buffer, data.strings.byteOffset, data.strings.byteLength);
  }

  get count(): number {
    return this.data.stringStart.length;
  }

  get(index: number): string {
    if (index >= this.count) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, `string index ${index} is outside the block's table`);
    return this.#bytes.toString('utf8', this.data.stringStart[index], this.data.stringEnd[index]);
  }
}

/** One decoded primitive block in columns, reused block after block; `pack` copies it out. */
export class PrimitiveBlock {
  readonly nodes = new NodeColumns();
  readonly ways = new WayColumns();
  readonly relations = new RelationColumns();
  #buf: Buffer = Buffer.alloc(0);
  readonly #stringStart = new Growable(Uint32Array);
  readonly #stringEnd = new Growable(Uint32Array);
  /** Where the string table lies in the block. */
  #table = { start: 0, end: 0 };
  /** One reader per nesting level (group, element, packed field), reset rather than allocated. */
  readonly #group = new ProtoReader(this.#buf);
  readonly #element = new ProtoReader(this.#buf);
  readonly #packed = new ProtoReader(this.#buf);
  #scale: Scale = { granularity: 100, latOffset: 0, lonOffset: 0 };

  /**
   * The block copied out into one buffer, each column aligned to its element size (the
   * string table's offsets made relative to its bytes; the resolved references -1 until
   * resolved). `spare` is reused when it is large enough.
   */
  pack(spare?: ArrayBuffer): PackedBlock {
    const { start, end } = this.#table;
    const { nodes, ways, relations } = this;
    const sources: (ArrayLike<number> | number)[] = [
      this.#buf.subarray(start, end),
      this.#stringStart.view().map((offset) => offset - start),
      this.#stringEnd.view().map((offset) => offset - start),
      nodes.ids.view(),
      nodes.lat.view(),
      nodes.lon.view(),
      nodes.tagStart.view(),
      nodes.tags.view(),
      ways.ids.view(),
      ways.tagStart.view(),
      ways.tags.view(),
      ways.refStart.view(),
      ways.refs.view(),
      ways.refs.length,
      relations.ids.view(),
      relations.tagStart.view(),
      relations.tags.view(),
      relations.memberStart.view(),
      relations.memberIds.view(),
      relations.memberKinds.view(),
      relations.memberIds.length,
    ];
    let size = 0;
    const layout = sources.flatMap((source, i) => {
      const bytes = COLUMNS[i]!.BYTES_PER_ELEMENT;
      const offset = Math.ceil(size / bytes) * bytes;
      const length = typeof source === 'number' ? source : source.length;
      size = offset + length * bytes;
      return [offset, length];
    });
    const buffer = spare && spare.byteLength >= size ? spare : new ArrayBuffer(Math.ceil(size * 1.25));
    sources.forEach((source, i) => {
      const view = new COLUMNS[i]!(buffer, layout[2 * i], layout[2 * i + 1]);
      if (typeof source === 'number') view.fill(-1);
      else view.set(source);
    });
    return { buffer, layout };
  }

  decode(buf: Buffer): void {
    this.#buf = buf;
    this.#stringStart.clear();
    this.#stringEnd.clear();
    this.#table = { start: 0, end: 0 };
    this.nodes.clear();
    this.ways.clear();
    this.relations.clear();
    // Groups come before the coordinate scale in field order, so find the scale first.
    const groups: number[] = [];
    const scale = { granularity: 100, latOffset: 0, lonOffset: 0 };
    const block = new ProtoReader(buf);
    while (block.next()) {
      if (block.field === 1 && block.wire === WIRE_BYTES) {
        this.#table = { start: block.bytes(), end: block.stop };
        this.#stringTable(this.#table.start, this.#table.end);
      } else if (block.field === 2 && block.wire === WIRE_BYTES) groups.push(block.bytes(), block.stop);
      else if (block.field === 17) scale.granularity = block.varint();
      else if (block.field === 19) scale.latOffset = block.int64();
      else if (block.field === 20) scale.lonOffset = block.int64();
      else block.skip();
    }
    this.#scale = scale;
    for (let i = 0; i < groups.length; i += 2) {
      const group = this.#group.reset(buf, groups[i]!, groups[i + 1]!);
      while (group.next()) {
        if (group.wire !== WIRE_BYTES) group.skip();
        else if (group.field === 1) this.#node(this.#element.reset(buf, group.bytes(), group.stop));
        else if (group.field === 2) this.#dense(this.#element.reset(buf, group.bytes(), group.stop));
        else if (group.field === 3) this.#way(this.#element.reset(buf, group.bytes(), group.stop));
        else if (group.field === 4) this.#relation(this.#element.reset(buf, group.bytes(), group.stop));
        else group.skip();
      }
    }
  }

  #stringTable(start: number, end: number): void {
    const table = new ProtoReader(this.#buf, start, end);
    while (table.next()) {
      if (table.field !== 1 || table.wire !== WIRE_BYTES) {
        table.skip();
        continue;
      }
      this.#stringStart.push(table.bytes());
      this.#stringEnd.push(table.stop);
    }
  }

  #dense(dense: ProtoReader): void {
    const ranges: number[] = [];
    while (dense.next()) {
      if (dense.wire === WIRE_BYTES && (dense.field === 1 || dense.field === 8 || dense.field === 9 || dense.field === 10)) {
        ranges[2 * dense.field] = dense.bytes();
        ranges[2 * dense.field + 1] = dense.stop;
      } else dense.skip();
    }
    const nodes = this.nodes;
    const first = nodes.count;
    if (ranges[2] === undefined) return;
    const buf = dense.buf;
    // Each id takes at least a byte, so this is room enough.
    nodes.ids.ensure(ranges[3]! - ranges[2]);
    const end = readDeltas(buf, ranges[2], ranges[3]!, nodes.ids.data, first);
    const count = end - first;
    nodes.ids.length = end;
    nodes.count = end;
    for (const [field, column, offset] of [
      [8, nodes.lat, this.#scale.latOffset],
      [9, nodes.lon, this.#scale.lonOffset],
    ] as const) {
      if (ranges[2 * field] === undefined) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'dense nodes without coordinates');
      const values = column.ensure(count);
      if (readDeltas(buf, ranges[2 * field]!, ranges[2 * field + 1]!, values, first, end) !== end)
        throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'dense nodes have fewer coordinates than ids');
      const { granularity } = this.#scale;
      if (granularity !== 100 || offset !== 0) for (let i = first; i < end; i++) values[i] = toE7(values[i]!, granularity, offset);
      column.length = end;
    }
    const tagStart = nodes.tagStart.ensure(count);
    let at = nodes.tagStart.length;
    if (ranges[20] === undefined) {
      tagStart.fill(nodes.tags.length, at, at + count);
      nodes.tagStart.length = at + count;
      return;
    }
    // keys_vals holds each node's key/value indices, ended by a 0.
    const pairs = this.#packed.reset(buf, ranges[20], ranges[21]!);
    for (let n = 0; n < count; n++) {
      while (pairs.pos < pairs.end) {
        const key = pairs.varint();
        if (key === 0) break;
        nodes.tags.push(key);
        nodes.tags.push(pairs.varint());
      }
      tagStart[at++] = nodes.tags.length;
    }
    nodes.tagStart.length = at;
  }

  #node(node: ProtoReader): void {
    const nodes = this.nodes;
    let lat = 0;
    let lon = 0;
    const tagBase = nodes.tags.length;
    let id = 0;
    while (node.next()) {
      if (node.field === 1) id = node.svarint();
      else if (node.field === 8) lat = node.svarint();
      else if (node.field === 9) lon = node.svarint();
      else if ((node.field === 2 || node.field === 3) && node.wire === WIRE_BYTES) this.#tagIndices(node, nodes.tags, tagBase, node.field === 2 ? 0 : 1);
      else node.skip();
    }
    nodes.ids.push(id);
    nodes.lat.push(toE7(lat, this.#scale.granularity, this.#scale.latOffset));
    nodes.lon.push(toE7(lon, this.#scale.granularity, this.#scale.lonOffset));
    nodes.tagStart.push(nodes.tags.length);
    nodes.count++;
  }

  #way(way: ProtoReader): void {
    const ways = this.ways;
    if (ways.full) ways.reserve(1024);
    const tagBase = ways.tags.length;
    let id = 0;
    while (way.next()) {
      if (way.field === 1) id = way.int64();
      else if ((way.field === 2 || way.field === 3) && way.wire === WIRE_BYTES) this.#tagIndices(way, ways.tags, tagBase, way.field === 2 ? 0 : 1);
      else if (way.field === 8 && way.wire === WIRE_BYTES) {
        const start = way.bytes();
        const refs = ways.refs;
        // Each reference takes at least a byte, so this is room enough.
        const room = refs.length + way.stop - start;
        refs.length = readDeltas(way.buf, start, way.stop, refs.data.length >= room ? refs.data : refs.ensure(way.stop - start), refs.length);
      } else way.skip();
    }
    const n = ways.count;
    ways.ids.data[n] = id;
    ways.tagStart.data[n + 1] = ways.tags.length;
    ways.refStart.data[n + 1] = ways.refs.length;
    ways.ids.length = n + 1;
    ways.tagStart.length = ways.refStart.length = n + 2;
    ways.count = n + 1;
  }

  #relation(relation: ProtoReader): void {
    const relations = this.relations;
    const tagBase = relations.tags.length;
    const memberBase = relations.memberIds.length;
    let id = 0;
    while (relation.next()) {
      if (relation.field === 1) id = relation.int64();
      else if ((relation.field === 2 || relation.field === 3) && relation.wire === WIRE_BYTES) this.#tagIndices(relation, relations.tags, tagBase, relation.field === 2 ? 0 : 1);
      else if (relation.field === 9 && relation.wire === WIRE_BYTES) {
        const start = relation.bytes();
        relations.memberIds.length = readDeltas(relation.buf, start, relation.stop, relations.memberIds.ensure(relation.stop - start), relations.memberIds.length);
      } else if (relation.field === 10 && relation.wire === WIRE_BYTES) {
        const types = this.#packed.reset(relation.buf, relation.bytes(), relation.stop);
        const kinds = relations.memberKinds.ensure(types.end - types.pos);
        let at = memberBase;
        while (types.pos < types.end) kinds[at++] = Math.min(2, types.varint());
        relations.memberKinds.length = at;
      } else relation.skip();
    }
    const members = relations.memberIds.length;
    if (relations.memberKinds.length !== members)
      throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, `relation ${id} has ${members - memberBase} member ids but ${relations.memberKinds.length - memberBase} member types`);
    relations.ids.push(id);
    relations.tagStart.push(relations.tags.length);
    relations.memberStart.push(members);
    relations.count++;
  }

  /** Packed key (`slot` 0) or value (`slot` 1) indices into the pairs after `base`. */
  #tagIndices(reader: ProtoReader, tags: Growable<Uint32Array>, base: number, slot: 0 | 1): void {
    const packed = this.#packed.reset(reader.buf, reader.bytes(), reader.stop);
    // Each index takes at least a byte: room for as many pairs as there are bytes.
    const room = base + 2 * (packed.end - packed.pos);
    const data = tags.data.length >= room ? tags.data : tags.ensure(room - tags.length);
    let at = base + slot;
    while (packed.pos < packed.end) {
      data[at] = packed.varint();
      at += 2;
    }
    tags.length = Math.max(tags.length, at - 1);
  }
}

interface Scale {
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** A stored coordinate (granularity units plus an offset, both in nanodegrees) in 1e-7 degrees. */
function toE7(value: number, granularity: number, offset: number): number {
  return granularity === 100 && offset === 0 ? value : Math.round((offset + granularity * value) / 100);
}

export interface PbfHandlers {
  /** The file's header: its declared bounding box, when it has one. */
  header?(header: { bounds?: Bounds }): void;
  /** Each block, in file order; the next waits for a returned promise. */
  block(block: PrimitiveBlock): void | Promise<void>;
  /** Called after each blob with the bytes read so far. */
  progress?(bytesRead: number): void;
}

/**
 * Streams an `.osm.pbf` file block by block; memory stays bounded by what the handlers
 * keep. Any stream works, a pipe included.
 */
export async function readPbf(file: string, handlers: PbfHandlers, signal?: AbortSignal): Promise<void> {
  const block = new PrimitiveBlock();
  let offset = 0;
  try {
    for await (const { type, blob, end } of blobs(file, signal)) {
      offset = end;
      if (type === 'OSMHeader') handlers.header?.(decodeHeader(unpack(blob)));
      else if (type === 'OSMData') {
        block.decode(unpack(blob));
        await handlers.block(block);
      }
      handlers.progress?.(end);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    const code = error instanceof ExtractFault ? error.code : MAP_ERROR_CODES.EXTRACT_INVALID;
    throw new ExtractFault(code, `${file} is not a readable OSM PBF extract (near byte ${offset}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The file's blobs with their types, read in order from a stream. */
async function* blobs(file: string, signal?: AbortSignal): AsyncGenerator<{ type: string; blob: Buffer; end: number }> {
  const stream = createReadStream(file, { highWaterMark: 1 << 20, ...(signal && { signal }) });
  let buffered: Buffer[] = [];
  let size = 0;
  let consumed = 0;
  const chunks = stream[Symbol.asyncIterator]();
  /** The next `length` bytes, or undefined at the end of the file before any of them. */
  const take = async (length: number): Promise<Buffer | undefined> => {
    while (size < length) {
      const next = await chunks.next();
      if (next.done) {
        if (size === 0) return undefined;
        throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, `the file ends in the middle of a block (${size} of ${length} bytes)`);
      }
      const chunk = next.value as Buffer;
      buffered.push(chunk);
      size += chunk.length;
    }
    const joined = buffered.length === 1 ? buffered[0]! : Buffer.concat(buffered, size);
    const result = joined.subarray(0, length);
    const rest = joined.subarray(length);
    buffered = rest.length > 0 ? [rest] : [];
    size = rest.length;
    consumed += length;
    return result;
  };
  for (;;) {
    const prefix = await take(4);
    if (!prefix) return;
    const headerLength = prefix.readUInt32BE(0);
    if (headerLength > MAX_HEADER_BYTES) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, `a blob header claims ${headerLength} bytes (at most ${MAX_HEADER_BYTES})`);
    const header = new ProtoReader((await take(headerLength))!);
    let type = '';
    let dataSize = -1;
    while (header.next()) {
      if (header.field === 1 && header.wire === WIRE_BYTES) {
        const start = header.bytes();
        type = Buffer.from(header.buf.buffer, header.buf.byteOffset + start, header.stop - start).toString('utf8');
      } else if (header.field === 3) dataSize = header.varint();
      else header.skip();
    }
    if (dataSize < 0 || dataSize > MAX_BLOB_BYTES) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, `a blob claims ${dataSize} bytes (at most ${MAX_BLOB_BYTES})`);
    const blob = await take(dataSize);
    if (!blob) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'the file ends after a blob header');
    yield { type, blob, end: consumed };
  }
}

/**
 * A blob's content: stored raw or zlib-compressed (the formats every writer uses).
 * Inflated on this thread: for blocks of a megabyte or two that beats the thread pool's
 * hand-over, and one output chunk of the announced size spares zlib's concatenation.
 */
function unpack(blob: Buffer): Buffer {
  const reader = new ProtoReader(blob);
  let rawSize = 0;
  while (reader.next()) {
    if (reader.field === 1 && reader.wire === WIRE_BYTES) return blob.subarray(reader.bytes(), reader.stop);
    if (reader.field === 2 && reader.wire === 0) rawSize = reader.varint();
    else if (reader.field === 3 && reader.wire === WIRE_BYTES) {
      return inflateSync(blob.subarray(reader.bytes(), reader.stop), { chunkSize: Math.min(MAX_BLOB_BYTES, Math.max(64 * 1024, rawSize)) });
    } else if (reader.field >= 4 && reader.field <= 7) {
      const name = ['lzma', 'bzip2', 'lz4', 'zstd'][reader.field - 4];
      throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_UNSUPPORTED, `a blob is compressed with ${name}, which this reader does not support (write the file with zlib)`);
    } else reader.skip();
  }
  throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'a blob holds no data');
}

function decodeHeader(data: Buffer): { bounds?: Bounds } {
  const header = new ProtoReader(data);
  let bounds: Bounds | undefined;
  while (header.next()) {
    if (header.field === 1 && header.wire === WIRE_BYTES) {
      const box = new ProtoReader(data, header.bytes(), header.stop);
      const edges = [0, 0, 0, 0];
      while (box.next()) {
        if (box.field >= 1 && box.field <= 4) edges[box.field - 1] = box.svarint() / 1e9;
        else box.skip();
      }
      const [west, east, north, south] = edges as [number, number, number, number];
      if (south < north && west < east) bounds = { south, west, north, east };
    } else if (header.field === 4 && header.wire === WIRE_BYTES) {
      const feature = data.toString('utf8', header.bytes(), header.stop);
      if (!KNOWN_FEATURES.has(feature)) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_UNSUPPORTED, `the file requires the feature "${feature}", which this reader does not support`);
    } else header.skip();
  }
  return bounds ? { bounds } : {};
}
