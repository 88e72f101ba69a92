import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';

/** The methods that open a conversation: `initialize` (2025-11-25 and before) and `server/discover` (2026-07-28). */
const HANDSHAKES = new Set(['initialize', 'server/discover']);

/**
 * Makes `server` answer the handshake with `failure` (the start of a server never seen
 * failed, or ran past the wake budget), as the first request after it would be answered,
 * instead of stating an identity the hub would have to invent. The SDK installs its
 * `server/discover` handler after the factory returns, so the instance's
 * `setRequestHandler` is wrapped for those methods, and `initialize` is replaced now.
 */
export function failHandshake(server: Server, failure: unknown): void {
  const refusal = ProtocolError.isInstance(failure) ? failure : new ProtocolError(ProtocolErrorCode.InternalError, (failure as Error).message);
  const refuse = (): never => {
    throw refusal;
  };
  const set = server.setRequestHandler.bind(server) as (method: string, handler: (...args: unknown[]) => unknown) => void;
  const wrapped = (method: string, handler: (...args: unknown[]) => unknown): void => set(method, HANDSHAKES.has(method) ? refuse : handler);
  server.setRequestHandler = wrapped as Server['setRequestHandler'];
  wrapped('initialize', refuse);
}
