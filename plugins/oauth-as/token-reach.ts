import { HUB_RESOURCE, type TokenReach } from './api-token-list.js';
import type { PluginHub } from '../../core/plugin/index.js';

/** What a token to mint is asked to open: every endpoint, or these resources (`hub`, server names), and for `/hub` these servers. */
export interface ReachRequest {
  all?: boolean;
  resources?: readonly string[];
  servers?: readonly string[];
}

/** How a refusal names the choices: the command line's flags, or the console form's fields. */
export interface ReachWords {
  all: string;
  resource: string;
  servers: string;
}

export const FLAG_WORDS: ReachWords = { all: '--all', resource: '--resource', servers: '--servers' };

/**
 * What a token to mint reaches, or why it cannot be minted: the one check of `hub-admin
 * tokens mint` and of the console's mint. Every endpoint must be asked for (`all`): a token
 * that opens more than its holder needs is never what an operator gets by leaving something
 * out. Names are checked against the config, so that a misspelt server does not give a
 * token that opens nothing.
 */
export function tokenReach(hub: PluginHub, { all = false, resources, servers: asked }: ReachRequest, words: ReachWords = FLAG_WORDS): TokenReach | string {
  if (all && resources) return `${words.all} and ${words.resource} exclude each other: ${words.all} opens every endpoint`;
  if (!all && (!resources || resources.length === 0)) {
    return `say what the token opens: ${words.resource} <name> for each endpoint (hub for /hub, a server name for /<name>/mcp), or ${words.all} for every endpoint`;
  }
  const servers = asked === undefined ? undefined : [...new Set(asked.map((name) => name.trim()).filter((name) => name !== ''))];
  if (servers !== undefined && (all || !resources?.includes(HUB_RESOURCE))) return `${words.servers} limits what a token reaches through /hub: use it with ${words.resource} hub`;
  if (servers?.length === 0) return `${words.servers} takes server names, separated by commas`;
  const configured = hub.servers.list().map((server) => server.name);
  const unknown = [...(resources ?? []).filter((name) => name !== HUB_RESOURCE), ...(servers ?? [])].find((name) => !hub.servers.get(name));
  if (unknown !== undefined) return `no server is named "${unknown}" (configured: ${configured.join(', ') || 'none'})`;
  const hidden = servers?.find((name) => hub.servers.get(name)?.hidden);
  if (hidden !== undefined) return `server "${hidden}" is not offered through /hub (hub: false): open its own endpoint with ${words.resource} ${hidden}`;
  return { ...(resources && { resources: [...new Set(resources)] }), ...(servers && { servers }) };
}

/** What a token opens, in words. */
export function describeReach({ resources, servers }: TokenReach): string {
  if (!resources) return 'every MCP endpoint (/hub and every /<name>/mcp)';
  const endpoints = resources.map((name) => (name === HUB_RESOURCE ? `/hub${servers ? ` (servers ${servers.join(', ')} only)` : ''}` : `/${name}/mcp`));
  return `${endpoints.join(', ')} only`;
}
