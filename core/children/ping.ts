import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import type { ChildWire } from '../mcp/revision.js';

/**
 * Probes a connected child every `intervalMs`, as its revision probes (`ChildWire.probe`);
 * a probe that times out or fails on the transport calls `onFailure` once and stops. An
 * error answer (a JSON-RPC error) still proves the child alive.
 */
export function startPings(client: Client, wire: ChildWire, intervalMs: number, timeoutMs: number, onFailure: (reason: string) => void): () => void {
  if (intervalMs === 0) return () => undefined;
  let stopped = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    wire
      .probe(client, timeoutMs)
      .then(
        () => undefined,
        (error: Error) => {
          if (stopped || error instanceof ProtocolError) return;
          stop();
          onFailure(`did not answer a ping: ${error.message}`);
        },
      )
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return stop;
}
