import { writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';

/** The protobuf wire format, written: just what small test extracts need. */
export class Proto {
  readonly #parts: Buffer[] = [];

  static varint(value: number | bigint): Buffer {
    let rest = BigInt(value);
    const bytes: number[] = [];
    do {
      const low = Number(rest & 0x7fn);
      rest >>= 7n;
      bytes.push(rest > 0n ? low | 0x80 : low);
    } while (rest > 0n);
    return Buffer.from(bytes);
  }

  static zigzag(value: number): bigint {
    const big = BigInt(value);
    return big >= 0n ? big * 2n : -big * 2n - 1n;
  }

  #key(field: number, wire: number): void {
    this.#parts.push(Proto.varint(field * 8 + wire));
  }

  /** A varint field (`int32`, `uint32`, `int64` as two's complement, `enum`). */
  uint(field: number, value: number): this {
    this.#key(field, 0);
    this.#parts.push(Proto.varint(value < 0 ? BigInt.asUintN(64, BigInt(value)) : value));
    return this;
  }

  sint(field: number, value: number): this {
    this.#key(field, 0);
    this.#parts.push(Proto.varint(Proto.zigzag(value)));
    return this;
  }

  bytes(field: number, value: Buffer | Proto | string): this {
    const content = value instanceof Proto ? value.toBuffer() : Buffer.from(value);
    this.#key(field, 2);
    this.#parts.push(Proto.varint(content.length), content);
    return this;
  }

  /** A packed repeated field: `sint` zigzag-encodes, `delta` writes differences from the previous value. */
  packed(field: number, values: readonly number[], options: { sint?: boolean; delta?: boolean } = {}): this {
    let previous = 0;
    const content = Buffer.concat(
      values.map((value) => {
        const written = options.delta ? value - previous : value;
        previous = value;
        return Proto.varint(options.sint ? Proto.zigzag(written) : written);
      }),
    );
    this.#key(field, 2);
    this.#parts.push(Proto.varint(content.length), content);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.#parts);
  }
}

export interface TestNode {
  id: number;
  lat: number;
  lon: number;
  tags?: Record<string, string>;
}
export interface TestWay {
  id: number;
  refs: number[];
  tags?: Record<string, string>;
}
export interface TestRelation {
  id: number;
  members: { type: 'node' | 'way' | 'relation'; ref: number; role?: string }[];
  tags?: Record<string, string>;
}

export interface ExtractOptions {
  /** The header's box in degrees. */
  bounds?: { south: number; west: number; north: number; east: number };
  requiredFeatures?: string[];
  /** Dense nodes (the usual) or one message per node. */
  dense?: boolean;
  /** zlib-compressed blobs (the usual) or raw ones. */
  compress?: boolean;
  /** Nanodegrees per unit and offsets, as the format allows (default 100, 0, 0). */
  granularity?: number;
  latOffset?: number;
  lonOffset?: number;
  /** Elements per block. */
  blockSize?: number;
  /** Blocks in this order instead of nodes, ways, relations. */
  order?: ('nodes' | 'ways' | 'relations')[];
}

/** Writes a small `.osm.pbf` with the given elements, in blocks, as the format describes it. */
export async function writeExtract(file: string, elements: { nodes: TestNode[]; ways?: TestWay[]; relations?: TestRelation[] }, options: ExtractOptions = {}): Promise<void> {
  const header = new Proto();
  if (options.bounds) {
    const { south, west, north, east } = options.bounds;
    header.bytes(
      1,
      new Proto()
        .sint(1, Math.round(west * 1e9))
        .sint(2, Math.round(east * 1e9))
        .sint(3, Math.round(north * 1e9))
        .sint(4, Math.round(south * 1e9)),
    );
  }
  for (const feature of options.requiredFeatures ?? ['OsmSchema-V0.6', 'DenseNodes']) header.bytes(4, feature);
  const blobs = [blob('OSMHeader', header.toBuffer(), options.compress ?? true)];
  const size = options.blockSize ?? 8000;
  const groups = {
    nodes: chunks(elements.nodes, size).map((nodes) => (table: StringTable) => nodeGroup(nodes, table, options)),
    ways: chunks(elements.ways ?? [], size).map((ways) => (table: StringTable) => wayGroup(ways, table)),
    relations: chunks(elements.relations ?? [], size).map((relations) => (table: StringTable) => relationGroup(relations, table)),
  };
  for (const kind of options.order ?? (['nodes', 'ways', 'relations'] as const)) {
    for (const group of groups[kind]) {
      const table = new StringTable();
      const content = group(table);
      const block = new Proto().bytes(1, table.toProto()).bytes(2, content);
      if (options.granularity !== undefined) block.uint(17, options.granularity);
      if (options.latOffset !== undefined) block.uint(19, options.latOffset);
      if (options.lonOffset !== undefined) block.uint(20, options.lonOffset);
      blobs.push(blob('OSMData', block.toBuffer(), options.compress ?? true));
    }
  }
  await writeFile(file, Buffer.concat(blobs));
}

class StringTable {
  readonly #strings = [''];
  index(text: string): number {
    let at = this.#strings.indexOf(text);
    if (at < 0) at = this.#strings.push(text) - 1;
    return at;
  }
  toProto(): Proto {
    const table = new Proto();
    for (const text of this.#strings) table.bytes(1, text);
    return table;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** A coordinate in the block's units: (degrees in nanodegrees - offset) / granularity. */
function units(degrees: number, offset: number, granularity: number): number {
  return Math.round((Math.round(degrees * 1e9) - offset) / granularity);
}

function nodeGroup(nodes: readonly TestNode[], table: StringTable, options: ExtractOptions): Proto {
  const granularity = options.granularity ?? 100;
  const lat = (node: TestNode) => units(node.lat, options.latOffset ?? 0, granularity);
  const lon = (node: TestNode) => units(node.lon, options.lonOffset ?? 0, granularity);
  const group = new Proto();
  if (options.dense ?? true) {
    const keysVals = nodes.flatMap((node) => [...Object.entries(node.tags ?? {}).flatMap(([key, value]) => [table.index(key), table.index(value)]), 0]);
    const dense = new Proto()
      .packed(
        1,
        nodes.map((node) => node.id),
        { sint: true, delta: true },
      )
      .packed(8, nodes.map(lat), { sint: true, delta: true })
      .packed(9, nodes.map(lon), { sint: true, delta: true })
      .packed(10, keysVals);
    return group.bytes(2, dense);
  }
  for (const node of nodes) {
    const tags = Object.entries(node.tags ?? {});
    group.bytes(
      1,
      new Proto()
        .sint(1, node.id)
        .packed(
          2,
          tags.map(([key]) => table.index(key)),
        )
        .packed(
          3,
          tags.map(([, value]) => table.index(value)),
        )
        .sint(8, lat(node))
        .sint(9, lon(node)),
    );
  }
  return group;
}

/** A way or relation message begun: its id, then its keys and values as string-table indices. */
function element(id: number, tags: Record<string, string> | undefined, table: StringTable): Proto {
  const entries = Object.entries(tags ?? {});
  return new Proto()
    .uint(1, id)
    .packed(
      2,
      entries.map(([key]) => table.index(key)),
    )
    .packed(
      3,
      entries.map(([, value]) => table.index(value)),
    );
}

function wayGroup(ways: readonly TestWay[], table: StringTable): Proto {
  const group = new Proto();
  for (const way of ways) group.bytes(3, element(way.id, way.tags, table).packed(8, way.refs, { sint: true, delta: true }));
  return group;
}

function relationGroup(relations: readonly TestRelation[], table: StringTable): Proto {
  const group = new Proto();
  for (const { id, tags, members } of relations) {
    group.bytes(
      4,
      element(id, tags, table)
        .packed(
          8,
          members.map((member) => table.index(member.role ?? '')),
        )
        .packed(
          9,
          members.map((member) => member.ref),
          { sint: true, delta: true },
        )
        .packed(
          10,
          members.map((member) => ['node', 'way', 'relation'].indexOf(member.type)),
        ),
    );
  }
  return group;
}

function blob(type: string, data: Buffer, compress: boolean): Buffer {
  const content = compress ? new Proto().uint(2, data.length).bytes(3, deflateSync(data)) : new Proto().bytes(1, data);
  const body = content.toBuffer();
  const header = new Proto().bytes(1, type).uint(3, body.length).toBuffer();
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, body]);
}
