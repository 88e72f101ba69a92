import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { sdkSeams } from '../children/client/plain-call-client.js';

/**
 * Makes `server` answer every request with `failure` (the start of a server never seen
 * failed, or ran past the wake budget), the handshake included, as the first request after
 * it would be answered, instead of stating an identity the hub would have to invent. The
 * handlers the SDK set in the constructor are replaced (read from its private map, by
 * the one module that reaches the SDK's internals; the
 * revision's handshake is among them on one revision), and `setRequestHandler` is wrapped
 * for those the SDK installs after the factory returns (the handshake on the other).
 */
export function refuseEveryRequest(server: Server, failure: unknown): void {
  const refusal = ProtocolError.isInstance(failure) ? failure : new ProtocolError(ProtocolErrorCode.InternalError, (failure as Error).message);
  const refuse = (): never => {
    throw refusal;
  };
  const set = server.setRequestHandler.bind(server) as (method: string, handler: () => never) => void;
  for (const method of sdkSeams(server).requestMethods()) set(method, refuse);
  server.setRequestHandler = (method: string) => set(method, refuse);
  server.fallbackRequestHandler = async () => refuse();
}
