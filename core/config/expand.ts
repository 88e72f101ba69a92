import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { readSecretFile } from '../secret-files.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in every string of the config, as Claude Code
 * does, so entries copy 1:1; an unset `VAR` is read from the file `VAR_FILE` names, when
 * set (a container's secret mount), by the rules of core/secret-files.ts. A variable
 * that is unset and has no default stops start-up: silently sending an empty bearer
 * token upstream would be worse.
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
