import type { Collections } from './records.js';

/** Authorization requests one address may have waiting for login or consent. */
export const PENDING_PER_ADDRESS = 10;

/**
 * Makes room for one more pending authorization request from `address`. Anyone can start
 * one without a password, so what they leave in the store is bounded: an address's own
 * oldest requests give way first (one address cannot push out anyone else's), then the
 * oldest of all beyond `max`.
 */
export async function makeRoomForPending(c: Collections, address: string, max: number): Promise<void> {
  const own = await c.pending.find({ address }, { sort: { expiresAt: 1 } });
  if (own.length >= PENDING_PER_ADDRESS) await c.pending.deleteMany({ _id: { $in: own.slice(0, own.length - PENDING_PER_ADDRESS + 1).map((pending) => pending._id) } });
  const total = await c.pending.countDocuments({});
  if (total < max) return;
  const oldest = await c.pending.find({}, { sort: { expiresAt: 1 }, limit: total - max + 1 });
  await c.pending.deleteMany({ _id: { $in: oldest.map((pending) => pending._id) } });
}
