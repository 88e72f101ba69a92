import type { ServerResponse } from 'node:http';

const CLOSERS = Symbol('closers');

type Closing = ServerResponse & { [CLOSERS]?: Array<(this: ServerResponse) => void> };

/**
 * Runs `listener` once when `response` closes (with the response as `this`), after those
 * given before it: what `response.once('close', listener)` does, with one listener on the
 * response for all of the hub's. A response has many (the access record, the drain, the
 * limits, the observers, the call's cancellation); each of Node's `once` wraps its listener,
 * and removes itself with a scan of the others: about 1% of a tool call's CPU. Hand-written
 * because it is the emitter's own bookkeeping that is cut. As with the emitter, one given
 * once the response has closed, or while its listeners run, never runs.
 */
export function onClose(response: ServerResponse, listener: (this: ServerResponse) => void): void {
  const closing = response as Closing;
  const listeners = closing[CLOSERS];
  if (listeners) listeners.push(listener);
  else {
    closing[CLOSERS] = [listener];
    response.once('close', runClosers);
  }
}

function runClosers(this: Closing): void {
  const listeners = this[CLOSERS] ?? [];
  // Those given from here on are too late, as an emitter's listeners added during its emit.
  const count = listeners.length;
  for (let at = 0; at < count; at += 1) listeners[at]?.call(this);
  listeners.length = 0;
}
