import type { ServerEntry } from '../config/schema.js';

/**
 * The per-server allow/deny decision. A tool is exposed when it is on `allowTools` (or
 * there is no such list) and not on `denyTools`.
 */
export function createToolFilter(entry: Pick<ServerEntry, 'allowTools' | 'denyTools'>): (toolName: string) => boolean {
  const allowed = entry.allowTools ? new Set(entry.allowTools) : undefined;
  const denied = new Set(entry.denyTools ?? []);
  return (toolName) => (allowed === undefined || allowed.has(toolName)) && !denied.has(toolName);
}
