import type { JWK } from 'jose';
import type { Collections, KeyRecord } from './records.js';
import { DuplicateKeyError } from '../../core/plugin/store.js';

/**
 * A key kept in the store under `id`, so that hub replicas share it, made by `create` the
 * first time any process needs it. Two processes making it at once keep the first one
 * stored. Undefined only when the store lost the record it had just refused to duplicate.
 */
export async function storedKey(c: Collections, id: string, create: () => Promise<{ privateJwk: JWK; publicJwk: JWK }>): Promise<KeyRecord | undefined> {
  const stored = await c.keys.findOne({ _id: id });
  if (stored) return stored;
  const created = await create();
  const record: KeyRecord = { _id: id, privateJwk: { ...created.privateJwk }, publicJwk: { ...created.publicJwk } };
  try {
    await c.keys.insertOne(record);
    return record;
  } catch (error) {
    // Another process created the key first: use that one.
    if (!(error instanceof DuplicateKeyError)) throw error;
    return (await c.keys.findOne({ _id: id })) ?? undefined;
  }
}
