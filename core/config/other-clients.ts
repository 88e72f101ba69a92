import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import type { HubConfig } from './schema.js';

/** What `adoptOtherClients` rewrote in each config it returned, for the one info line per change. */
const adopted = new WeakMap<object, readonly string[]>();

/** Transport names other clients write for what the hub calls `http` (VS Code, Cline, Roo Code). */
const HTTP_ALIASES = ['streamable-http', 'streamableHttp'];

/**
 * A config written for another client, read as the hub's where that is unambiguous: VS
 * Code's top-level `servers` as `mcpServers`, `streamable-http`/`streamableHttp` as type
 * `http`, Windsurf's `serverUrl` as `url`. Where it is not (both spellings, differing),
 * the config is refused saying what to write. What was rewritten is told by
 * `adoptedFromOtherClients`, one line each.
 */
export function adoptOtherClients(raw: unknown, source: string): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const notes: string[] = [];
  const config = { ...(raw as Record<string, unknown>) };
  if ('servers' in config) {
    if ('mcpServers' in config) {
      throw new StartupError(`${source}: both "servers" (VS Code's key) and "mcpServers" are set: move the entries of "servers" into "mcpServers" and remove "servers"`, {
        code: HUB_ERROR_CODES.CONFIG_INVALID,
      });
    }
    config.mcpServers = config.servers;
    delete config.servers;
    notes.push('"servers" (VS Code\'s key) read as "mcpServers"');
  }
  const servers = config.mcpServers;
  if (typeof servers === 'object' && servers !== null && !Array.isArray(servers)) {
    config.mcpServers = Object.fromEntries(Object.entries(servers).map(([name, entry]) => [name, adoptEntry(name, entry, source, notes)]));
  }
  adopted.set(config, notes);
  return config;
}

function adoptEntry(name: string, raw: unknown, source: string, notes: string[]): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const entry = { ...(raw as Record<string, unknown>) };
  if (typeof entry.type === 'string' && HTTP_ALIASES.includes(entry.type)) {
    notes.push(`mcpServers.${name}: "type": "${entry.type}" read as "http" (Streamable HTTP)`);
    entry.type = 'http';
  }
  if ('serverUrl' in entry) {
    if ('url' in entry && entry.url !== entry.serverUrl) {
      throw new StartupError(`${source}: server "${name}": both "serverUrl" (Windsurf's key) and "url" are set and differ: keep "url" only`, { code: HUB_ERROR_CODES.CONFIG_INVALID });
    }
    entry.url = entry.serverUrl;
    delete entry.serverUrl;
    notes.push(`mcpServers.${name}: "serverUrl" (Windsurf's key) read as "url"`);
  }
  return entry;
}

/** What `adoptOtherClients` rewrote in `config` (or in the config checked from it), one line each. */
export function adoptedFromOtherClients(config: object): readonly string[] {
  return adopted.get(config) ?? [];
}

/** Carries what was rewritten over to the config made from the adopted one (expanded). */
export function keepAdopted(from: object, to: object): void {
  const notes = adopted.get(from);
  if (notes !== undefined) adopted.set(to, notes);
}

/**
 * Keys of a server entry that other MCP clients read and the hub does not act on, with
 * who uses them and what the hub does instead. Entries copy 1:1 from those clients'
 * files, so they are accepted, but an operator is told once that they change nothing.
 */
const FOREIGN_KEYS: Readonly<Record<string, string>> = {
  autoApprove: "Cline's list of tools run without asking; approval is up to the client that calls the hub",
  alwaysAllow: "Roo Code's and Kilo Code's list of tools run without asking; approval is up to the client that calls the hub",
  disabledTools: "Windsurf's and Roo Code's hidden tools; the hub's key is \"denyTools\"",
  includeTools: 'Gemini CLI\'s allowed tools; the hub\'s key is "allowTools"',
  excludeTools: 'Gemini CLI\'s hidden tools; the hub\'s key is "denyTools"',
  trust: "Gemini CLI's skipping of confirmations; approval is up to the client that calls the hub",
  transportType: 'Cline\'s transport; the hub reads "type", or infers it from "command" or "url"',
  httpUrl: 'Gemini CLI\'s Streamable HTTP address; the hub\'s key is "url" (with "type": "http")',
  envFile: 'a file of variables (VS Code); the hub reads "env" and expands ${VAR} from its own environment',
};

/** A `timeout` below this is not milliseconds anyone means (Cline counts seconds). */
const SHORTEST_TIMEOUT_MS = 1000;

/** One warning line per server and key the hub accepts without acting on it. */
export function configNotices(config: HubConfig): string[] {
  const warnings: string[] = [];
  for (const [name, entry] of Object.entries(config.mcpServers ?? {})) {
    for (const key of Object.keys(entry)) {
      const what = FOREIGN_KEYS[key];
      if (what !== undefined) warnings.push(`mcpServers.${name}: "${key}" is not acted on by the hub (${what})`);
    }
    if (entry.timeout !== undefined && entry.timeout < SHORTEST_TIMEOUT_MS) {
      warnings.push(
        `mcpServers.${name}: "timeout" is in milliseconds, as in Claude Code, and ${entry.timeout} is under a second, so it is ignored (Cline's "timeout" counts seconds: ${entry.timeout} seconds is ${
          entry.timeout * 1000
        })`,
      );
    }
  }
  return warnings;
}

/** The per-server tool call timeout an entry sets, if it sets one the hub takes. */
export function entryCallTimeoutMs(timeout: number | undefined): number | undefined {
  return timeout !== undefined && timeout >= SHORTEST_TIMEOUT_MS ? timeout : undefined;
}
