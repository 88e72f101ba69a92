import type { Tool } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { RequestWake } from './request-wake.js';

/**
 * The proxy answers listing and calls from the Child's cache; a server never seen is
 * started by its first use. When that start fails the endpoint cannot know the tools, so
 * it says why instead of claiming there are none: a JSON-RPC error naming the server and
 * the cause.
 */
export async function knownTools(child: Child, wake?: RequestWake): Promise<Tool[]> {
  await toolsKnown(child, wake);
  return child.tools;
}

/** A filtered name is refused without waking anything. `wake`: the request's one wait for the child. */
export async function findKnownTool(child: Child, name: string, wake?: RequestWake): Promise<Tool | undefined> {
  if (!child.isToolAllowed(name)) return undefined;
  await toolsKnown(child, wake);
  return child.findTool(name);
}

async function toolsKnown(child: Child, wake: RequestWake | undefined): Promise<void> {
  if (wake) return wake.known();
  try {
    await child.ensureToolsKnown();
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, (error as Error).message);
  }
}
