import type { HubConfig } from './schema.js';

/**
 * Keys of a server entry that other MCP clients read and the hub does not act on, with
 * who uses them and what the hub does instead. Entries copy 1:1 from those clients'
 * files, so they are accepted, but an operator is told once that they change nothing.
 */
const FOREIGN_KEYS: Readonly<Record<string, string>> = {
  autoApprove: "Cline's list of tools run without asking; approval is up to the client that calls the hub",
  alwaysAllow: "Roo Code's and Kilo Code's list of tools run without asking; approval is up to the client that calls the hub",
  disabledTools: 'Windsurf\'s and Roo Code\'s hidden tools; the hub\'s key is "denyTools"',
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
        `mcpServers.${name}: "timeout" is in milliseconds, as in Claude Code, and ${entry.timeout} is under a second, so it is ignored (Cline's "timeout" counts seconds: ${entry.timeout} seconds is ${entry.timeout * 1000})`,
      );
    }
  }
  return warnings;
}

/** The per-server tool call timeout an entry sets, if it sets one the hub takes. */
export function entryCallTimeoutMs(timeout: number | undefined): number | undefined {
  return timeout !== undefined && timeout >= SHORTEST_TIMEOUT_MS ? timeout : undefined;
}
