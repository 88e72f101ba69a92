import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import { errorMessage } from '../errors.js';

/**
 * One request's wait for its child, within one wake budget whatever it waits on: the
 * child coming up (once: a wake that failed is this request's answer to whatever else
 * would wait, never a second budget) and asking the child what it shows the caller's
 * revision (bounded by what is left of the budget). Made per request on the SDK's road.
 */
export class RequestWake {
  readonly #child: Child;
  readonly #deadline: number;
  #up: Promise<void> | undefined;

  constructor(child: Child, budgetMs: number, now = Date.now()) {
    this.#child = child;
    this.#deadline = now + budgetMs;
  }

  /** The child up; the first failure is kept, as a JSON-RPC error naming the server and the cause. */
  up(): Promise<void> {
    this.#up ??= this.#child.ensureUp().then(
      () => undefined,
      (error: unknown) => {
        throw new ProtocolError(ProtocolErrorCode.InternalError, errorMessage(error));
      },
    );
    return this.#up;
  }

  /** The child's tool list and capabilities known: from its snapshot, else from waking it. */
  async known(): Promise<void> {
    if (this.#child.toolsKnown && this.#child.capabilities !== undefined) return;
    await this.up();
  }

  /** The same request's wait for another child (a virtual server's call routed to the underlying one): what is left of the budget. */
  forChild(child: Child, now = Date.now()): RequestWake {
    return new RequestWake(child, Math.max(0, this.#deadline - now), now);
  }

  /** Aborts when the request's budget is spent. */
  remaining(now = Date.now()): AbortSignal {
    return AbortSignal.timeout(Math.max(0, this.#deadline - now));
  }
}
