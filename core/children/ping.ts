import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { systemClock, type ChildClock, type ClockTimer } from './clock.js';

/**
 * Pings a connected child every `intervalMs`; a ping that times out or fails on the
 * transport calls `onFailure` once and stops. An error answer (a JSON-RPC error) still
 * proves the child alive. The 2026 era defines no ping, so a modern connection is probed
 * with `server/discover`, which every modern server answers.
 */
export function startPings(client: Client, intervalMs: number, timeoutMs: number, onFailure: (reason: string) => void, clock: ChildClock = systemClock): () => void {
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
    const options = { timeout: timeoutMs, signal: late.signal };
    const probe = client.getProtocolEra() === 'modern' ? client.discover(options) : client.ping(options);
    probe.then(
      () => {
        clock.clearTimeout(deadline);
        if (!stopped) schedule();
      },
      (error: Error) => {
        clock.clearTimeout(deadline);
        if (stopped) return;
        if (error instanceof ProtocolError) return schedule();
        stop();
        onFailure(`did not answer a ping: ${late.signal.aborted ? (late.signal.reason as Error).message : error.message}`);
      },
    );
  }
  function stop(): void {
    stopped = true;
    clock.clearTimeout(timer);
  }
  schedule();
  return stop;
}
