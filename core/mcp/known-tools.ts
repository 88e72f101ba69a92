import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Tool } from '@modelcontextprotocol/client';
import type { Child } from '../children/child.js';

/**
 * The proxy answers listing and calls from the Child's cache; a server never seen is
 * started by its first use. When that start fails, the list is not known: listing
 * answers the reason, never an empty list.
 */
export async function knownTools(child: Child): Promise<Tool[]> {
  await child.ensureToolsKnown().catch((error: Error) => {
    throw startFailure(error);
  });
  return child.tools;
}

/** A filtered name is refused without waking anything. */
export async function findKnownTool(child: Child, name: string): Promise<Tool | undefined> {
  if (!child.isToolAllowed(name)) return undefined;
  await child.ensureToolsKnown().catch(() => undefined);
  return child.findTool(name);
}

/**
 * The error for a call `findKnownTool` found nothing for: a tool that does not exist, or,
 * when the server's tools could not be learnt because it did not start, that reason.
 */
export function unknownToolError(child: Child, name: string): ProtocolError {
  if (child.isToolAllowed(name) && !child.toolsKnown && child.lastError !== undefined) {
    return startFailure(new Error(`server "${child.name}" could not start: ${child.lastError}`));
  }
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
}

function startFailure(error: Error): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
}
