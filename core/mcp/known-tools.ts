import type { Tool } from '@modelcontextprotocol/client';
import type { Child } from '../children/child.js';

/**
 * A server that has never been seen (no snapshot, never up) has no cached list yet, so
 * the first listing or call is its first use and starts it. Every later answer comes
 * from the cache, and a filtered name is refused without waking anything.
 */
async function ensureListKnown(child: Child): Promise<void> {
  if (child.tools.length === 0 && child.status !== 'up') await child.ensureUp().catch(() => undefined);
}

export async function knownTools(child: Child): Promise<Tool[]> {
  await ensureListKnown(child);
  return child.tools;
}

export async function findKnownTool(child: Child, name: string): Promise<Tool | undefined> {
  if (!child.isToolAllowed(name)) return undefined;
  await ensureListKnown(child);
  return child.findTool(name);
}
