import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { readSecretFile } from '../secret-files.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in every string of the config, as Claude Code
 * does, so entries copy 1:1; an unset `VAR` is read from the file `VAR_FILE` names, when
 * set (a container's secret mount), by the rules of core/secret-files.ts. A variable
 * that is unset and has no default stops start-up: silently sending an empty bearer
 * token upstream would be worse. (A server entry's variables are `expandConfig`'s: there
 * one unset variable takes down only that server.)
 */
export function expandEnvironment<T>(value: T, env: NodeJS.ProcessEnv, source: string, path = ''): T {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const resolved = env[name];
      if (resolved !== undefined && resolved !== '') return resolved;
      // The secret-file convention: an unset NAME may come from the file NAME_FILE names.
      const file = env[`${name}_FILE`]?.trim();
      if (file) return readSecretFile(`${name}_FILE`, file);
      if (fallback !== undefined) return fallback;
      throw new StartupError(`${source}: environment variable ${name} is not set (used at ${path || 'the top level'}); set it or write \${${name}:-default}`, { code: HUB_ERROR_CODES.CONFIG_INVALID });
    }) as T;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => expandEnvironment(item, env, source, `${path}[${index}]`)) as T;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandEnvironment(item, env, source, path ? `${path}.${key}` : key)]),
    ) as T;
  }
  return value;
}

/**
 * The first variable of `value` that is unset and has no default, with where it is used;
 * undefined when every reference resolves.
 */
export function firstUnsetVariable(value: unknown, env: NodeJS.ProcessEnv, path: string): { name: string; path: string } | undefined {
  if (typeof value === 'string') {
    for (const [, name, fallback] of value.matchAll(REFERENCE)) {
      if (name !== undefined && (env[name] === undefined || env[name] === '') && !env[`${name}_FILE`]?.trim() && fallback === undefined) return { name, path };
    }
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstUnsetVariable(item, env, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = firstUnsetVariable(item, env, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** Why a server whose entry names an unset variable is down (`firstUnsetVariable`), in an operator's words. */
export function unsetVariableProblem(found: { name: string; path: string }): string {
  return `environment variable ${found.name} is not set (used at ${found.path}); set it or write \${${found.name}:-default}, then reload`;
}

/**
 * `expandEnvironment` for a whole config, except that a server entry naming an unset
 * variable is left as written (never sent anywhere: that server is kept down, naming the
 * variable, see `ConfiguredServers.check`) instead of stopping the hub and every other
 * server; so `hub-admin` never needs a server's secrets either.
 */
export function expandConfig<T extends { mcpServers?: Record<string, unknown> }>(config: T, env: NodeJS.ProcessEnv, source: string): T {
  const { mcpServers, ...rest } = config;
  const expanded = expandEnvironment(rest, env, source) as Omit<T, 'mcpServers'>;
  if (mcpServers === undefined) return expanded as T;
  const servers = Object.fromEntries(
    Object.entries(mcpServers).map(([name, entry]) => {
      const path = `mcpServers.${name}`;
      return [name, firstUnsetVariable(entry, env, path) ? entry : expandEnvironment(entry, env, source, path)];
    }),
  );
  return { ...expanded, mcpServers: servers } as T;
}
