import type { FastifyBaseLogger } from 'fastify';
import { observe } from '../observe.js';
import type { Store } from '../store/index.js';
import { LoginThrottle, type LoginAttempt } from './login-throttle.js';
import { SharedPassword } from './password.js';

/**
 * How a person proves they operate this hub, shared by every page that asks (the OAuth
 * approval page, the upstream logins, the status page): one password and one throttle, kept
 * in the store, so the brute-force budget is one per deployment, whichever page is tried.
 */
export class OperatorLogin {
  readonly password: SharedPassword;
  readonly #throttle: LoginThrottle;

  constructor(
    dataPath: string,
    env: NodeJS.ProcessEnv,
    store: Store,
    /** The hub whose operator this is, named in the auth failures it publishes. */
    private readonly hub: object = {},
    log?: FastifyBaseLogger,
  ) {
    this.password = new SharedPassword(dataPath, env, log);
    this.#throttle = new LoginThrottle(store);
  }

  /** A password presented from `ip`: refused while that address has too many wrong ones, else checked. */
  async attempt(ip: string, presented: string): Promise<LoginAttempt> {
    const attempt = await this.#throttle.attempt(ip, () => this.password.matches(presented));
    const failure = attempt.refused === false ? (attempt.matched ? undefined : 'wrong_password') : attempt.refused === 'unavailable' ? undefined : 'login_throttled';
    if (failure !== undefined && observe.authFailure.active) observe.authFailure.publish({ hub: this.hub, reason: failure });
    return attempt;
  }
}
