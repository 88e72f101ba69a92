import type { Tool } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';

/**
 * The proxy answers listing and calls from the Child's cache; a server never seen is
 * started by its first use. When that start fails the endpoint cannot know the tools, so
 * it says why instead of claiming there are none: a JSON-RPC error naming the server and
 * the cause.
 */
export async function knownTools(child: Child): Promise<Tool[]> {
  await toolsKnown(child);
  return child.tools;
}

/**
 * The tool a caller names, or why there is none for callers: `denied` for a name the
 * filter keeps out (refused without waking anything), `unknown` for one the server does
 * not have. A server never seen is woken to learn its tools; when that fails, the start's
 * own error (a HubError naming the server and the cause) is thrown.
 */
export async function lookupTool(child: Child, name: string): Promise<Tool | 'denied' | 'unknown'> {
  if (!child.isToolAllowed(name)) return 'denied';
  await child.ensureToolsKnown();
  return child.findTool(name) ?? 'unknown';
}

async function toolsKnown(child: Child): Promise<void> {
  try {
    await child.ensureToolsKnown();
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, (error as Error).message);
  }
}
