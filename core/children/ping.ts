import { ProtocolError, type Client } from '@modelcontextprotocol/client';

/**
 * Pings a connected child every `intervalMs`; a ping that times out or fails on the
 * transport calls `onFailure` once and stops. An error answer (a JSON-RPC error) still
 * proves the child alive. The 2026 era defines no ping, so a modern connection is probed
 * with `server/discover`, which every modern server answers.
 */
export function startPings(client: Client, intervalMs: number, timeoutMs: number, onFailure: (reason: string) => void): () => void {
  if (intervalMs === 0) return () => undefined;
  let stopped = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    const probe = client.getProtocolEra() === 'modern' ? client.discover({ timeout: timeoutMs }) : client.ping({ timeout: timeoutMs });
    probe
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
