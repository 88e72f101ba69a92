import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new high-entropy secret with a readable prefix saying what it is. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/**
 * A secret determined by `seed` (itself a secret) and `input`: the same inputs give the
 * same secret, and without the seed nobody can compute it, the holder of `input` included.
 */
export function derivedSecret(prefix: string, seed: string, input: string): string {
  return `${prefix}_${createHmac('sha256', seed).update(input).digest('base64url')}`;
}

/**
 * Secrets are stored only as this hash. They are 256-bit random values, so a fast hash
 * is enough; a lookup by hash never compares secrets byte by byte in JavaScript.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
