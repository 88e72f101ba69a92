/**
 * The protobuf wire format over one buffer: just what `.osm.pbf` blocks need. Written by
 * hand rather than generated because the loader decodes packed fields straight into
 * typed columns, never building an object per element; building those objects is where
 * a general parser spends its time, and the loader's rate depends on not doing it.
 */
import { MAP_ERROR_CODES } from '../error-codes.js';
import { ExtractFault } from './extract-fault.js';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

const TWO_POW_28 = 2 ** 28;
const TWO_POW_32 = 2 ** 32;

export class ProtoReader {
  pos: number;
  /** The field number and wire type of the field `next` stopped at. */
  field = 0;
  wire = 0;
  /** Where the content of the field `bytes` read ends. */
  stop = 0;

  constructor(
    public buf: Uint8Array,
    start = 0,
    public end = buf.length,
  ) {
    this.pos = start;
  }

  /** Points the reader at another message, so hot loops reuse one reader rather than allocate. */
  reset(buf: Uint8Array, start: number, end: number): this {
    this.buf = buf;
    this.pos = start;
    this.end = end;
    return this;
  }

  /** Moves to the next field; false at the end of the message. */
  next(): boolean {
    if (this.pos >= this.end) return false;
    const key = this.varint();
    this.field = Math.floor(key / 8);
    this.wire = key & 7;
    return true;
  }

  /** An unsigned varint; exact up to 2^53, which covers every OSM id. */
  varint(): number {
    const buf = this.buf;
    let byte = buf[this.pos++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    byte = buf[this.pos++]!;
    value |= (byte & 0x7f) << 7;
    if (byte < 0x80) return value;
    byte = buf[this.pos++]!;
    value |= (byte & 0x7f) << 14;
    if (byte < 0x80) return value;
    byte = buf[this.pos++]!;
    value |= (byte & 0x7f) << 21;
    if (byte < 0x80) return value;
    let scale = TWO_POW_28;
    for (let i = 0; i < 6; i++) {
      byte = buf[this.pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'malformed varint');
  }

  /** A zigzag-encoded signed varint (`sint32`, `sint64`). */
  svarint(): number {
    const n = this.varint();
    if (n < TWO_POW_32) return (n >>> 1) ^ -(n & 1);
    return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
  }

  /** A plain `int64`, where negative numbers take ten bytes of two's complement. */
  int64(): number {
    const start = this.pos;
    const value = this.varint();
    if (this.pos - start < 10) return value;
    // Ten bytes: the sign bit is set. Reassemble the two 32-bit halves of the pattern.
    let low = 0;
    let high = 0;
    for (let i = 0; i < 10; i++) {
      const bits = this.buf[start + i]! & 0x7f;
      if (i < 4) low |= bits << (7 * i);
      else if (i === 4) {
        low |= (bits & 0x0f) << 28;
        high |= bits >> 4;
      } else high |= bits << (7 * i - 32);
    }
    return -((~high >>> 0) * TWO_POW_32 + (~low >>> 0) + 1);
  }

  /** Moves past a length-delimited field; returns where its content starts (it ends at `stop`). */
  bytes(): number {
    const length = this.varint();
    const start = this.pos;
    this.pos += length;
    if (this.pos > this.end) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'a field runs past the end of its message');
    this.stop = this.pos;
    return start;
  }

  skip(): void {
    if (this.wire === WIRE_VARINT) this.varint();
    else if (this.wire === WIRE_BYTES) this.bytes();
    else if (this.wire === WIRE_FIXED64) this.pos += 8;
    else if (this.wire === WIRE_FIXED32) this.pos += 4;
    else throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, `unsupported protobuf wire type ${this.wire}`);
  }
}

/**
 * Decodes packed zigzag varints (`sint64`) as deltas from `buf[start, end)` into `out`
 * from `at`, writing the running sums; returns the index after the last one written.
 * The hot loop of every load (node ids, coordinates, way references), so it keeps its
 * position in a local and decodes short varints inline.
 */
export function readDeltas(buf: Uint8Array, start: number, end: number, out: Float64Array, at: number, limit = out.length): number {
  let pos = start;
  let sum = 0;
  while (pos < end && at < limit) {
    let byte = buf[pos++]!;
    let value = byte & 0x7f;
    if (byte >= 0x80) {
      byte = buf[pos++]!;
      value |= (byte & 0x7f) << 7;
      if (byte >= 0x80) {
        byte = buf[pos++]!;
        value |= (byte & 0x7f) << 14;
        if (byte >= 0x80) {
          byte = buf[pos++]!;
          value |= (byte & 0x7f) << 21;
          if (byte >= 0x80) {
            let scale = TWO_POW_28;
            do {
              if (pos >= end) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'malformed varint');
              byte = buf[pos++]!;
              value += (byte & 0x7f) * scale;
              scale *= 128;
            } while (byte >= 0x80);
            sum += value % 2 === 1 ? -(value + 1) / 2 : value / 2;
            out[at++] = sum;
            continue;
          }
        }
      }
    }
    sum += (value >>> 1) ^ -(value & 1);
    out[at++] = sum;
  }
  if (pos > end) throw new ExtractFault(MAP_ERROR_CODES.EXTRACT_INVALID, 'a packed field runs past its end');
  return at;
}
