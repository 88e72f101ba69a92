import type { ServerContext } from '@modelcontextprotocol/server';

/**
 * What forwarding a call needs of the caller's request: the SDK's `ServerContext` fits it,
 * and so does the per-server endpoint's plain road, which has no SDK server behind it.
 */
export interface CallerRequest {
  mcpReq: Pick<ServerContext['mcpReq'], '_meta' | 'envelope' | 'signal' | 'notify' | 'requestState' | 'inputResponses'>;
  http?: { authInfo?: { clientId: string } | undefined } | undefined;
}

/** The SDK types the lifted envelope as an empty object; its keys are the reserved `_meta` names. */
export function envelopeOf(request: CallerRequest): Record<string, unknown> {
  return (request.mcpReq.envelope ?? {}) as Record<string, unknown>;
}
