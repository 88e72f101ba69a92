import type { Filter, StoreDocument } from './port.js';

/**
 * Both backends remove expired documents lazily (MongoDB's TTL monitor runs about once a
 * minute; the embedded store sweeps periodically), so every operation also hides them:
 * a filter is narrowed to documents whose TTL fields are absent or still in the future.
 * TTL fields must hold Dates.
 */
export function withinLifetime<T extends StoreDocument>(filter: Filter<T>, ttlFields: ReadonlyMap<string, number>, now = Date.now()): Filter<T> {
  if (ttlFields.size === 0) return filter;
  const alive = [...ttlFields].map(([field, seconds]) => ({
    $or: [{ [field]: { $exists: false } }, { [field]: { $gt: new Date(now - seconds * 1000) } }],
  }));
  // Top-level equality keys stay where they are so that both backends can still use an
  // index (the embedded one only looks at top-level keys); the conditions go in `$and`.
  const { $or, ...rest } = filter;
  const conditions = $or ? [{ $or }, ...alive] : alive;
  return { ...rest, $and: conditions };
}
