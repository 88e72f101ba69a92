import type { Tool } from '@modelcontextprotocol/client';
import type { Child } from '../children/child.js';

/**
 * The proxy answers listing and calls from the Child's cache; a server never seen is
 * started by its first use. A start that fails leaves the list empty here, and the call
 * that follows reports the reason.
 */
export async function knownTools(child: Child): Promise<Tool[]> {
  await child.ensureToolsKnown().catch(() => undefined);
  return child.tools;
}

/** A filtered name is refused without waking anything. */
export async function findKnownTool(child: Child, name: string): Promise<Tool | undefined> {
  if (!child.isToolAllowed(name)) return undefined;
  await child.ensureToolsKnown().catch(() => undefined);
  return child.findTool(name);
}
