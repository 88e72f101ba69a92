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

  constructor(dataPath: string, env: NodeJS.ProcessEnv, store: Store) {
    this.password = new SharedPassword(dataPath, env);
    this.#throttle = new LoginThrottle(store);
  }

  /** A password presented from `ip`: refused while that address has too many wrong ones, else checked. */
  attempt(ip: string, presented: string): Promise<LoginAttempt> {
    return this.#throttle.attempt(ip, () => this.password.matches(presented));
  }
}
