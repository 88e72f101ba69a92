import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret, newSecret } from '../secrets.js';
import type { Store, StoreCollection } from '../store/index.js';
import { sharedAttempt } from '../shared-attempt.js';

/** The operator session's cookie: one for every page of the hub. */
export const SESSION_COOKIE = 'hub_session';
/** The store collection of the sessions (their secrets' hashes). */
const SESSIONS_COLLECTION = 'operator-sessions';

interface SessionRecord {
  /** The hash of the cookie's secret: the store never holds a secret a browser presents. */
  _id: string;
  expiresAt: Date;
}

/**
 * Operator sessions: a random secret in an httpOnly cookie, its hash with its expiry in the
 * store, so that every replica knows the session and a logout ends it everywhere at once.
 * A login always starts a new session (the secret of a session started before the login,
 * by whoever set the cookie, never becomes a logged-in one).
 */
export class OperatorSessions {
  readonly #records: StoreCollection<SessionRecord>;
  /** Made before the first session is kept, not at start: a hub nobody logs in to never touches its store for this. */
  readonly #ensureIndex = sharedAttempt(() => this.#records.createIndex('expiresAt', { expireAfterSeconds: 0 }));

  constructor(
    store: Store,
    private readonly lifetimeSeconds: number,
    /** Path and `Secure` of the cookie: the prefix the hub is served under, and whether its base URL is https. */
    private readonly cookie: Pick<CookieSerializeOptions, 'path' | 'secure'>,
    private readonly now: () => number = Date.now,
  ) {
    this.#records = store.collection<SessionRecord>(SESSIONS_COLLECTION);
  }

  /** Whether the request's cookie names a live session. */
  async live(request: FastifyRequest): Promise<boolean> {
    const secret = request.cookies[SESSION_COOKIE];
    if (!secret) return false;
    const record = await this.#records.findOne({ _id: hashSecret(secret) });
    return record !== null && record.expiresAt.getTime() > this.now();
  }

  /** Starts a session on `reply`, ending the one the request carried, if any. */
  async start(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.#ensureIndex();
    const secret = newSecret('ses');
    await this.#records.insertOne({ _id: hashSecret(secret), expiresAt: new Date(this.now() + this.lifetimeSeconds * 1000) });
    await this.#forget(request);
    reply.setCookie(SESSION_COOKIE, secret, { ...this.cookie, httpOnly: true, sameSite: 'lax', maxAge: this.lifetimeSeconds });
  }

  /** Ends the request's session, in the store and in the browser. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.#forget(request);
    reply.clearCookie(SESSION_COOKIE, { ...this.cookie, httpOnly: true, sameSite: 'lax' });
  }

  async #forget(request: FastifyRequest): Promise<void> {
    const secret = request.cookies[SESSION_COOKIE];
    if (secret) await this.#records.deleteOne({ _id: hashSecret(secret) });
  }
}

/** Ends every operator session, on every replica (they share the store); resolves with how many there were. */
export function endAllOperatorSessions(store: Store): Promise<number> {
  return store.collection<SessionRecord>(SESSIONS_COLLECTION).deleteMany({});
}
