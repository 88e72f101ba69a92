import { HUB_ERROR_CODES, StartupError } from '../errors.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in every string of the config, as Claude Code
 * does, so entries copy 1:1. A variable that is unset and has no default stops start-up:
 * silently sending an empty bearer token upstream would be worse.
 */
export function expandEnvironment<T>(value: T, env: NodeJS.ProcessEnv, source: string, path = ''): T {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const resolved = env[name];
      if (resolved !== undefined && resolved !== '') return resolved;
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
