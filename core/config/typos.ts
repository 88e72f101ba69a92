import { nearestKey, propertyNames } from './key-names.js';
import { HubConfig, ServerEntry } from './schema.js';

/**
 * Unknown keys stay tolerated (entries copy 1:1 from other clients' configs, which carry
 * keys of their own), but one that is a known key in the wrong case, or within a small
 * edit distance of one, is almost certainly a typo that silently drops a setting the
 * operator meant: each gets a warning that names the key and the likely intent.
 */
export function likelyTypos(config: HubConfig, entryKeys: (name: string, entry: ServerEntry) => string[]): string[] {
  const warnings = suspects(config, propertyNames(HubConfig)).map(([key, known]) => `unknown key "${key}" (did you mean "${known}"?)`);
  for (const [name, entry] of Object.entries(config.mcpServers ?? {})) {
    const known = [...new Set([...propertyNames(ServerEntry), ...entryKeys(name, entry)])];
    for (const [key, intended] of suspects(entry, known)) warnings.push(`mcpServers.${name}: unknown key "${key}" (did you mean "${intended}"?)`);
  }
  return warnings;
}

/** The keys of `value` that are not known but look like one that is, with that one. */
function suspects(value: object, known: string[]): [string, string][] {
  const found: [string, string][] = [];
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = nearestKey(key, known);
    if (near !== undefined) found.push([key, near]);
  }
  return found;
}
