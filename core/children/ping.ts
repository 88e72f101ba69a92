import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import type { ChildWire } from '../revisions/revision.js';
import { systemClock, type ChildClock, type ClockTimer } from './clock.js';
import { errorMessage } from '../errors.js';

/**
 * Probes a connected child every `intervalMs`, as its revision probes (`ChildWire.probe`);
 * a probe that times out or fails on the transport calls `onFailure` once and stops. An
 * error answer (a JSON-RPC error) still proves the child alive. The next probe is
 * scheduled when the last one has settled, so two never overlap.
 */
export function startPings(client: Client, wire: ChildWire, intervalMs: number, timeoutMs: number, onFailure: (reason: string) => void, clock: ChildClock = systemClock): () => void {
  if (intervalMs === 0) return () => undefined;
  let stopped = false;
  let timer: ClockTimer | undefined;
  const schedule = (): void => {
    timer = clock.setTimeout(ping, intervalMs);
  };
  // The answer is awaited on the clock's time: the SDK's own timeout (the same length)
  // only backs it up, so a test that advances the clock decides when a ping is late.
  function ping(): void {
    const late = new AbortController();
    const deadline = clock.setTimeout(() => late.abort(new Error(`Request timed out after ${timeoutMs} ms`)), timeoutMs);
    wire.probe(client, { timeout: timeoutMs, signal: late.signal }).then(
      () => {
        clock.clearTimeout(deadline);
        if (!stopped) schedule();
      },
      (error: unknown) => {
        clock.clearTimeout(deadline);
        if (stopped) return;
        if (error instanceof ProtocolError) return schedule();
        stop();
        onFailure(`did not answer a ping: ${late.signal.aborted ? (late.signal.reason as Error).message : errorMessage(error)}`);
      },
    );
  }
  schedule();
  function stop(): void {
    stopped = true;
    if (timer) clock.clearTimeout(timer);
  }
  return stop;
}
