import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { OSMTransform } from 'osm-pbf-parser-node';

export type Tags = Record<string, string>;
export type ElementKind = 'node' | 'way' | 'relation';

export interface RawNode {
  type: 'node';
  id: number;
  lat: number;
  lon: number;
  tags?: Tags;
}
export interface RawWay {
  type: 'way';
  id: number;
  refs: number[];
  tags?: Tags;
}
export interface RawMember {
  type: ElementKind;
  ref: number;
  role: string;
}
export interface RawRelation {
  type: 'relation';
  id: number;
  members: RawMember[];
  tags?: Tags;
}
export type RawElement = RawNode | RawWay | RawRelation;

export interface ReadHandlers {
  node(node: RawNode): void;
  way(way: RawWay): void;
  relation(relation: RawRelation): void;
  /** Called now and then with the share of the file read so far, in [0, 1]. */
  progress?(fraction: number): void;
}

/**
 * Streams an `.osm.pbf` file element by element, so memory stays bounded by what the
 * handlers keep. The parser's items are untyped; they are checked here once so the
 * rest of the engine can trust them.
 */
export async function readPbf(file: string, handlers: ReadHandlers): Promise<void> {
  const size = (await stat(file)).size;
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  const sink = new Writable({
    objectMode: true,
    write(items: unknown, _encoding, next) {
      try {
        if (Array.isArray(items)) for (const item of items) dispatch(item, handlers);
        handlers.progress?.(size === 0 ? 1 : source.bytesRead / size);
        next();
      } catch (error) {
        next(error as Error);
      }
    },
  });
  await pipeline(source, new OSMTransform({ withTags: true, withInfo: false }), sink);
}

function dispatch(item: unknown, handlers: ReadHandlers): void {
  if (typeof item !== 'object' || item === null || !('type' in item) || !('id' in item)) return;
  const element = item as { type: unknown; id: unknown; tags?: unknown };
  if (typeof element.id !== 'number') return;
  const tags = isTags(element.tags) ? element.tags : undefined;
  if (element.type === 'node') {
    const node = item as { lat?: unknown; lon?: unknown };
    if (typeof node.lat === 'number' && typeof node.lon === 'number') {
      handlers.node({ type: 'node', id: element.id, lat: node.lat, lon: node.lon, ...(tags && { tags }) });
    }
  } else if (element.type === 'way') {
    const refs = (item as { refs?: unknown }).refs;
    if (Array.isArray(refs)) handlers.way({ type: 'way', id: element.id, refs: refs.filter((ref) => typeof ref === 'number'), ...(tags && { tags }) });
  } else if (element.type === 'relation') {
    const members = (item as { members?: unknown }).members;
    if (Array.isArray(members)) handlers.relation({ type: 'relation', id: element.id, members: members.filter(isMember), ...(tags && { tags }) });
  }
}

function isTags(value: unknown): value is Tags {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}

function isMember(value: unknown): value is RawMember {
  if (typeof value !== 'object' || value === null) return false;
  const member = value as { type?: unknown; ref?: unknown; role?: unknown };
  return (member.type === 'node' || member.type === 'way' || member.type === 'relation') && typeof member.ref === 'number' && typeof member.role === 'string';
}
