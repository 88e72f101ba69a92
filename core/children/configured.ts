import { StartupError } from '../errors.js';
import { SERVER_NAME_PATTERN } from '../config/schema.js';
import { firstSchemaProblem, pointerToPath } from '../config/schema-errors.js';
import type { Hub } from '../hub.js';
import { inferType } from './registry.js';

const serverName = new RegExp(SERVER_NAME_PATTERN);

/**
 * Adds a Child for every `mcpServers` entry, after the plugins have registered the
 * child types. Checks what only the running hub knows: names against the paths the hub
 * and its plugins serve, and each entry against its type's own schema.
 */
export function registerConfiguredServers(hub: Hub, source: string): void {
  for (const [name, entry] of Object.entries(hub.config.mcpServers ?? {})) {
    if (!serverName.test(name)) {
      throw new StartupError(`${source}: server "${name}": the name must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit`);
    }
    if (hub.reservedPaths.has(name.toLowerCase())) {
      throw new StartupError(`${source}: server "${name}": the name is reserved for the hub's own paths (${[...hub.reservedPaths].sort().join(', ')})`);
    }
    if (hub.children.get(name)) {
      throw new StartupError(`${source}: server "${name}": the name is already taken by a server a plugin provides`);
    }
    const type = inferType(entry);
    const childType = hub.childTypes.get(type);
    if (!childType) {
      throw new StartupError(
        `${source}: server "${name}": key "type": expected one of ${hub.childTypes.names().map((known) => `"${known}"`).join(', ')} (got "${type}"; is the plugin that adds it enabled?)`,
      );
    }
    const problem = firstSchemaProblem(childType.entrySchema, entry);
    if (problem) {
      throw new StartupError(`${source}: server "${name}": key "${pointerToPath(problem.path) || '(entry)'}": expected ${problem.expected}`);
    }
    hub.children.add(name, entry);
  }
}
