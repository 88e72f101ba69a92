/**
 * How a call in flight hears that it is over before its answer: the caller cancelled or
 * went away, or the hub's timeout fired. A plain call takes this rather than an
 * AbortSignal: making a signal and wiring its listeners cost more than the rest of the
 * call's bookkeeping, and the common call is never cancelled. `signal` makes one, on first
 * read, for a road whose library takes a signal (an HTTP client).
 */
export interface CallCancel {
  /** Whether the call is cancelled already. */
  readonly aborted: boolean;
  /** Why it was cancelled (an `SdkError` for the timeout); undefined while it is not. */
  readonly reason: unknown;
  /** Hears the cancellation once, with its reason (at once when it has come); returns the unsubscribe. */
  onCancel(listener: (reason: unknown) => void): () => void;
  /** An AbortSignal that follows the cancellation, made when first read. */
  readonly signal: AbortSignal;
}

/**
 * A `CallCancel` the hub cancels with `abort`, as an AbortController's signal would be,
 * without making one unless `signal` is read. Most calls have one listener (the road that
 * sends them), kept without an array.
 */
export class CallCancellation implements CallCancel {
  #controller: AbortController | undefined;
  #listener: ((reason: unknown) => void) | undefined;
  #listeners: Array<(reason: unknown) => void> | undefined;
  #reason: unknown;
  #aborted = false;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  onCancel(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) {
      listener(this.#reason);
      return () => undefined;
    }
    if (this.#listener === undefined && this.#listeners === undefined) this.#listener = listener;
    else (this.#listeners ??= []).push(listener);
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
      else {
        const at = this.#listeners?.indexOf(listener) ?? -1;
        if (at !== -1) this.#listeners?.splice(at, 1);
      }
    };
  }

  /** Cancels the call once; as an AbortController does, without a reason an AbortError. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const first = this.#listener;
    this.#listener = undefined;
    first?.(reason);
    for (const listener of this.#listeners?.splice(0) ?? []) listener(reason);
  }
}
