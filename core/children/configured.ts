import { isDeepStrictEqual } from 'node:util';
import { StartupError } from '../errors.js';
import { SERVER_NAME_PATTERN, type HubConfig, type ServerEntry } from '../config/schema.js';
import { firstSchemaProblem, pointerToPath } from '../config/schema-errors.js';
import { likelyTypos, propertyNames } from '../config/typos.js';
import type { Hub } from '../hub.js';
import { inferType } from './registry.js';

const serverName = new RegExp(SERVER_NAME_PATTERN);

/** What a reload did to the configured servers. */
export interface ServerChanges {
  added: string[];
  removed: string[];
  restarted: string[];
  /** Changed entries left running as they were, with why. */
  kept: { name: string; why: string }[];
  unchanged: number;
}

/**
 * The servers the config file asks for (not those a plugin or an embedding app adds).
 * `check` validates a config against what only the running hub knows: names against the
 * paths the hub and its plugins serve, each entry against its type's own schema. `apply`
 * brings the running children in line with checked entries, touching only what changed.
 */
export class ConfiguredServers {
  #entries = new Map<string, ServerEntry>();

  constructor(private readonly hub: Hub) {}

  /** The config's servers, checked; throws a StartupError naming the first problem. */
  check(config: HubConfig, source: string): Map<string, ServerEntry> {
    const entries = new Map<string, ServerEntry>();
    for (const [name, entry] of Object.entries(config.mcpServers ?? {})) {
      if (!serverName.test(name)) {
        throw new StartupError(`${source}: server "${name}": the name must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit`);
      }
      if (this.hub.reservedPaths.has(name.toLowerCase())) {
        throw new StartupError(`${source}: server "${name}": the name is reserved for the hub's own paths (${[...this.hub.reservedPaths].sort().join(', ')})`);
      }
      if (this.hub.children.get(name) && !this.#entries.has(name)) {
        throw new StartupError(`${source}: server "${name}": the name is already taken by a server a plugin provides`);
      }
      const type = inferType(entry);
      const childType = this.hub.childTypes.get(type);
      if (!childType) {
        throw new StartupError(
          `${source}: server "${name}": key "type": expected one of ${this.hub.childTypes.names().map((known) => `"${known}"`).join(', ')} (got "${type}"; is the plugin that adds it enabled?)`,
        );
      }
      const problem = firstSchemaProblem(childType.entrySchema, entry);
      if (problem) {
        throw new StartupError(`${source}: server "${name}": key "${pointerToPath(problem.path) || '(entry)'}": expected ${problem.expected}`);
      }
      for (const [key, { schema }] of this.hub.serverKeys) {
        const value = (entry as Record<string, unknown>)[key];
        const keyProblem = value === undefined ? undefined : firstSchemaProblem(schema, value);
        if (keyProblem) {
          const path = pointerToPath(keyProblem.path);
          throw new StartupError(`${source}: server "${name}": key "${key}${path ? `.${path}` : ''}": expected ${keyProblem.expected}`);
        }
      }
      entries.set(name, entry);
    }
    return entries;
  }

  /** Likely typos in the config's keys, as warning lines (see `likelyTypos`). */
  typos(config: HubConfig): string[] {
    return likelyTypos(config, (_name, entry) => {
      const schema = this.hub.childTypes.get(inferType(entry))?.entrySchema;
      return [...(schema ? propertyNames(schema) : []), ...this.hub.serverKeys.keys()];
    });
  }

  /** At start: adds every checked entry. */
  add(entries: Map<string, ServerEntry>): void {
    for (const [name, entry] of entries) this.hub.children.add(name, entry);
    this.#entries = new Map(entries);
  }

  /**
   * At a reload: added servers are created, removed ones are stopped once their calls
   * finish, changed ones are replaced (stopped the same way, then created anew), and
   * unchanged ones are left running untouched. An entry with a key a plugin sets up at
   * start (its `serverKeys`) is kept as it runs until the next restart. Resolves once
   * the new set serves; `stopped` once the old servers' calls have finished.
   */
  async apply(entries: Map<string, ServerEntry>): Promise<{ changes: ServerChanges; stopped: Promise<void> }> {
    const changes: ServerChanges = { added: [], removed: [], restarted: [], kept: [], unchanged: 0 };
    const running = this.#entries;
    const next = new Map<string, ServerEntry>();
    const stopping: Promise<void>[] = [];
    const toStart = new Set<string>();
    for (const [name] of running) {
      if (entries.has(name)) continue;
      changes.removed.push(name);
      stopping.push(this.hub.children.remove(name));
    }
    for (const [name, entry] of entries) {
      const before = running.get(name);
      if (before !== undefined && isDeepStrictEqual(before, entry)) {
        changes.unchanged += 1;
        next.set(name, before);
        continue;
      }
      const setUp = [...this.hub.serverKeys].find(([key]) => (entry as Record<string, unknown>)[key] !== undefined || (before as Record<string, unknown> | undefined)?.[key] !== undefined);
      if (setUp) {
        changes.kept.push({ name, why: `"${setUp[0]}" is set up by ${setUp[1].plugin} at start; restart the hub for this change` });
        if (before !== undefined) next.set(name, before);
        continue;
      }
      if (before !== undefined) {
        changes.restarted.push(name);
        if (this.hub.children.get(name)?.status === 'up') toStart.add(name);
        // The old process stops after its calls; the new one serves every call from now on.
        stopping.push(this.hub.children.remove(name));
      } else {
        changes.added.push(name);
      }
      this.hub.children.add(name, entry);
      next.set(name, entry);
    }
    this.#entries = next;
    const fresh = [...changes.added, ...changes.restarted].flatMap((name) => this.hub.children.get(name) ?? []);
    await this.hub.children.loadSnapshots(fresh);
    for (const child of fresh) {
      if (child.alwaysRunning || toStart.has(child.name)) child.ensureUp().catch((error: Error) => child.log.warn({ err: error.message }, 'server did not start after the reload'));
    }
    return { changes, stopped: Promise.all(stopping).then(() => undefined) };
  }
}
