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
  await child.recheckWithheld();
  return child.tools;
}

/**
 * The tool callers get, or why a tool gate withholds it (for a tool error), or undefined
 * for a name the server does not offer. A filtered name is refused without waking anything.
 */
export async function findKnownTool(child: Child, name: string): Promise<Tool | string | undefined> {
  if (!child.isToolAllowed(name)) return undefined;
  await toolsKnown(child);
  return child.findTool(name) ?? child.recheckTool(name);
}

async function toolsKnown(child: Child): Promise<void> {
  try {
    await child.ensureToolsKnown();
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, (error as Error).message);
  }
}
