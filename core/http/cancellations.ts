import type { RequestId } from '@modelcontextprotocol/server';
import { HUB_ERROR_CODES, HubError } from '../errors.js';
import { InFlightMap } from '../in-flight-map.js';

/** A call in flight, as the registry cancels it (an AbortController, or the fast road's caller). */
export interface Cancellable {
  abort(reason?: unknown): void;
}

/**
 * The calls in flight on one endpoint that a caller may cancel with a message of its own
 * (a revision whose cancellation arrives apart from its request, `cancelledRequest`), by
 * the caller's identity and the id it gave the request: a cancellation reaches only the
 * calls of the caller who sent it, whatever id it names.
 */
export class Cancellations {
  readonly #calls = new Map<string, InFlightMap<RequestId, Cancellable>>();

  /** Keeps `call` cancellable by `caller` under `id`, until `remove`. */
  add(caller: string, id: RequestId, call: Cancellable): void {
    let calls = this.#calls.get(caller);
    if (!calls) this.#calls.set(caller, (calls = new InFlightMap()));
    calls.set(id, call);
  }

  remove(caller: string, id: RequestId, call: Cancellable): void {
    const calls = this.#calls.get(caller);
    if (calls?.get(id) !== call) return;
    calls.delete(id);
    if (calls.size === 0) this.#calls.delete(caller);
  }

  /** Cancels `caller`'s call `id`, if one is in flight (at most CLIENT_MAX_CONCURRENT are kept per caller). */
  cancel(caller: string, id: RequestId, reason: string): void {
    this.#calls.get(caller)?.get(id)?.abort(new HubError(HUB_ERROR_CODES.CALL_CANCELLED, reason));
  }
}
