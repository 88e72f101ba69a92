import { isDeepStrictEqual } from 'node:util';
import { HUB_ERROR_CODES, StartupError, errorMessage } from '../errors.js';
import { SERVER_NAME_PATTERN, type HubConfig, type ServerEntry } from '../config/schema.js';
import { pointerToPath, schemaProblems } from '../config/schema-errors.js';
import { adoptedFromOtherClients, configNotices } from '../config/other-clients.js';
import { variableProblem } from '../config/expand.js';
import { propertyNames } from '../config/key-names.js';
import { likelyTypos } from '../config/typos.js';
import type { Hub } from '../hub.js';
import { inferType } from './registry.js';

const serverName = new RegExp(SERVER_NAME_PATTERN);

/** What a reload did to the configured servers. */
export interface ServerChanges {
  added: string[];
  removed: string[];
  restarted: string[];
  /** Entries changed only in what the hub applies itself (tool filters, `hub`, `timeout`): applied without a restart. */
  retuned: string[];
  /** Changed entries the reload refused (each left running as it was), with why: a key its plugin sets up at start changed. */
  refused: { name: string; why: string }[];
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
  /** Entries that name an unset variable or a `${...}` the hub cannot expand: kept down with why (the others run). */
  #blocked = new Map<string, string>();
  readonly #noticed = new Set<string>();

  constructor(private readonly hub: Hub) {}

  /**
   * The config's servers, checked; entries marked `"disabled": true` are left out, as the
   * clients the file may come from do. Throws a StartupError naming the first problem (and,
   * in its `problems`, every field error of that entry), or, when `leftOut` is given
   * (hub-admin, hub check), leaves each broken entry out and tells each of its problems there.
   */
  check(config: HubConfig, source: string, leftOut?: (problem: string, name: string) => void): Map<string, ServerEntry> {
    const entries = new Map<string, ServerEntry>();
    this.#blocked = new Map();
    for (const [name, entry] of Object.entries(config.mcpServers ?? {})) {
      if (entry.disabled === true) continue;
      const unexpanded = variableProblem(entry, this.hub.env, `mcpServers.${name}`);
      try {
        this.#checkEntry(name, entry, source, unexpanded === undefined);
      } catch (error) {
        if (!leftOut || !(error instanceof StartupError)) throw error;
        for (const problem of error.problems) leftOut(problem, name);
        continue;
      }
      entries.set(name, entry);
      if (unexpanded !== undefined) this.#blocked.set(name, unexpanded);
    }
    this.#checkAgainstOthers(entries, source, leftOut);
    return entries;
  }

  /** `check` without leftOut, for a config that is not applied (the console's save, before it writes): the entries kept down stay as they are. */
  checkOnly(config: HubConfig, source: string): void {
    const blocked = this.#blocked;
    try {
      this.check(config, source);
    } finally {
      this.#blocked = blocked;
    }
  }

  /** Why a checked entry is kept down (it names an unset variable or an editor's), if it is. */
  blocked(name: string): string | undefined {
    return this.#blocked.get(name);
  }

  /** Each entry whose type draws on other servers (`checkAgainst`), against the entries kept and the servers plugins provide. */
  #checkAgainstOthers(entries: Map<string, ServerEntry>, source: string, leftOut?: (problem: string, name: string) => void): void {
    const servers = new Map<string, ServerEntry>();
    for (const child of this.hub.children.all()) if (!this.#entries.has(child.name)) servers.set(child.name, child.entry);
    for (const [name, entry] of entries) servers.set(name, entry);
    for (const [name, entry] of entries) {
      const problem = this.hub.childTypes.get(inferType(entry))?.checkAgainst?.(name, entry, servers);
      if (problem === undefined) continue;
      const message = `${source}: server "${name}": ${problem}`;
      if (!leftOut) throw refused(message);
      leftOut(message, name);
      entries.delete(name);
    }
  }

  /** The entry as written still holds its `${VAR}` references, so its type's schema is not asked (a URL would not parse). */
  #checkEntry(name: string, entry: ServerEntry, source: string, expanded: boolean): void {
    if (!serverName.test(name)) {
      throw refused(`${source}: server "${name}": the name must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit`);
    }
    if (this.hub.reservedPaths.has(name.toLowerCase())) {
      throw refused(`${source}: server "${name}": the name is reserved for the hub's own paths (${[...this.hub.reservedPaths].sort().join(', ')})`);
    }
    if (this.hub.children.get(name) && !this.#entries.has(name)) {
      throw refused(`${source}: server "${name}": the name is already taken by a server a plugin provides`);
    }
    const type = inferType(entry);
    const childType = this.hub.childTypes.get(type);
    if (!childType) {
      throw refused(
        `${source}: server "${name}": key "type": expected one of ${this.hub.childTypes
          .names()
          .map((known) => `"${known}"`)
          .join(', ')} (got "${type}"; is the plugin that adds it enabled?)`,
      );
    }
    if (!expanded) return;
    const problems = schemaProblems(childType.entrySchema, entry).map((problem) => `${source}: server "${name}": key "${pointerToPath(problem.path) || '(entry)'}": expected ${problem.expected}`);
    for (const [key, { schema }] of this.hub.serverKeys) {
      const value = (entry as Record<string, unknown>)[key];
      for (const keyProblem of value === undefined ? [] : schemaProblems(schema, value)) {
        const path = pointerToPath(keyProblem.path);
        problems.push(`${source}: server "${name}": key "${key}${path ? `.${path}` : ''}": expected ${keyProblem.expected}`);
      }
    }
    const [first] = problems;
    if (first !== undefined) throw new StartupError(first, { code: HUB_ERROR_CODES.CONFIG_INVALID, problems });
  }

  /**
   * What the hub does not act on in the config, each said once per hub (a reload repeats
   * only what is new): keys other clients use, a `timeout` too short to be milliseconds,
   * servers left out as disabled.
   */
  notices(config: HubConfig): { warnings: string[]; disabled: string[]; adopted: string[] } {
    const warnings = configNotices(config).filter((warning) => !this.#noticed.has(warning));
    warnings.forEach((warning) => this.#noticed.add(warning));
    const adopted = adoptedFromOtherClients(config).filter((note) => !this.#noticed.has(note));
    adopted.forEach((note) => this.#noticed.add(note));
    const disabled = Object.entries(config.mcpServers ?? {}).flatMap(([name, entry]) => (entry.disabled === true ? [name] : []));
    return { warnings, disabled, adopted };
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
    for (const [name, entry] of entries) this.hub.children.add(name, entry, this.#blocked.get(name));
    this.#entries = new Map(entries);
  }

  /**
   * At a reload: added servers are created, removed ones are stopped once their calls
   * finish, changed ones are replaced (stopped the same way, then created anew), ones
   * changed only in what the hub applies itself (tool filters, `hub`, `timeout`) take the
   * change in place (so do keys a plugin reads at each use, its `liveServerKeys`: `pinTools`,
   * `guardSecrets`, ...), and unchanged ones are left running untouched. A change to an entry
   * with a key a plugin sets up at start (its other `serverKeys`, such as `oauth`) is
   * refused for that server, which runs on as it was until a restart. Resolves once
   * the new set serves; `stopped` once the old servers' calls have finished.
   */
  async apply(entries: Map<string, ServerEntry>): Promise<{ changes: ServerChanges; stopped: Promise<void> }> {
    const changes: ServerChanges = { added: [], removed: [], restarted: [], retuned: [], refused: [], unchanged: 0 };
    const hubSide = new Set([...HUB_SIDE_KEYS, ...[...this.hub.serverKeys].flatMap(([key, { live }]) => (live ? [key] : []))]);
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
      const child = this.hub.children.get(name);
      if (before !== undefined && child && sameChild(before, entry, hubSide)) {
        changes.retuned.push(name);
        child.retune(entry);
        next.set(name, entry);
        continue;
      }
      const setUp = [...this.hub.serverKeys].find(([key, { live }]) => !live && ((entry as Record<string, unknown>)[key] !== undefined || before?.[key] !== undefined));
      if (setUp) {
        const runs = before === undefined ? 'it is not added' : 'it runs on as it was';
        changes.refused.push({ name, why: `"${setUp[0]}" is set up by ${setUp[1].plugin} at start, so ${runs}; restart the hub to apply this change` });
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
      this.hub.children.add(name, entry, this.#blocked.get(name));
      next.set(name, entry);
    }
    this.#entries = next;
    const fresh = [...changes.added, ...changes.restarted].flatMap((name) => this.hub.children.get(name) ?? []);
    await this.hub.children.loadSnapshots(fresh);
    for (const child of fresh) {
      if (child.alwaysRunning || toStart.has(child.name)) child.ensureUp().catch((error: unknown) => child.log.warn({ err: errorMessage(error) }, 'server did not start after the reload'));
    }
    return { changes, stopped: Promise.all(stopping).then(() => undefined) };
  }
}

/** Keys the hub applies itself, in front of the child: changing them needs no restart. */
const HUB_SIDE_KEYS = ['allowTools', 'denyTools', 'hub', 'timeout'];

/** Whether two entries start the same child, whatever their hub-side keys (`hubSide`: the kernel's and the plugins' live keys) say. */
function sameChild(before: ServerEntry, after: ServerEntry, hubSide: ReadonlySet<string>): boolean {
  const childSide = (entry: ServerEntry) => Object.fromEntries(Object.entries(entry).filter(([key]) => !hubSide.has(key)));
  return isDeepStrictEqual(childSide(before), childSide(after));
}

/** A server entry the hub will not run: one start-up line naming the file, the server and the key. */
function refused(message: string): StartupError {
  return new StartupError(message, { code: HUB_ERROR_CODES.CONFIG_INVALID });
}
