import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { DuplicateKeyError, type Store } from '../store/index.js';
import { endAllOperatorSessions } from './sessions.js';

const derive = promisify(scrypt) as (secret: string, salt: Buffer, length: number) => Promise<Buffer>;

/** The fingerprint of the password the hub last started with: scrypt, salted, so the store gives no fast way to guess it. */
interface PasswordFingerprint {
  _id: 'operator-password';
  salt: string;
  fingerprint: string;
}

/**
 * At start: when the operator password (its hash, `passwordHash`) is not the one the hub
 * last started with, it was rotated, as after a leak, so every operator session ends
 * (everyone logs in again with the new one), unless `keep`. The first replica to start
 * with the new password does it; the others find the new fingerprint.
 */
export async function endSessionsOnPasswordChange(store: Store, passwordHash: string, keep: boolean, log: FastifyBaseLogger): Promise<void> {
  const records = store.collection<PasswordFingerprint>('operator-password');
  const known = await records.findOne({ _id: 'operator-password' });
  if (known && timingSafeEqual(await derive(passwordHash, Buffer.from(known.salt, 'base64url'), 32), Buffer.from(known.fingerprint, 'base64url'))) return;
  const salt = randomBytes(16);
  const fingerprint = { salt: salt.toString('base64url'), fingerprint: (await derive(passwordHash, salt, 32)).toString('base64url') };
  if (!known) {
    // The first start (or the first since an upgrade) has nothing to compare with; a replica starting beside it wrote the same.
    await records.insertOne({ _id: 'operator-password', ...fingerprint }).catch((error: unknown) => {
      if (!(error instanceof DuplicateKeyError)) throw error;
    });
    return;
  }
  // Of replicas starting together with the new password, one records it and ends the sessions.
  if ((await records.findOneAndUpdate({ _id: 'operator-password', fingerprint: known.fingerprint }, { $set: fingerprint })) === null) return;
  if (keep) {
    log.warn('the operator password changed since the last start; the operator sessions are kept (OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep)');
    return;
  }
  const ended = await endAllOperatorSessions(store);
  log.warn({ ended }, 'the operator password changed since the last start: every operator session was ended (OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep keeps them)');
}
