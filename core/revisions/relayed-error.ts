import { ProtocolError, type CallToolResult } from '@modelcontextprotocol/server';
import type { CallerWire } from './revision.js';

/**
 * A child's protocol error as the caller's revision answers it (`CallerWire.relayedError`):
 * the same error object when the revision keeps it, so nothing is copied on the common road.
 */
export function relayedChildError(revision: CallerWire, error: ProtocolError, method: string): ProtocolError | CallToolResult {
  if (!revision.relayedError) return error;
  const { code, message, data } = error;
  const relayed = revision.relayedError({ code, message, ...(data !== undefined && { data }) }, method);
  if ('content' in relayed) return relayed;
  return relayed.code === code && relayed.message === message && relayed.data === data ? error : ProtocolError.fromError(relayed.code, relayed.message, relayed.data);
}
