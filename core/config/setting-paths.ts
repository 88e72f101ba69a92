import { isAbsolute, resolve } from 'node:path';

// The two path settings as settings.ts reads them, apart from its TypeBox schema: hub-admin
// finds the config and the store with nothing heavier loaded.

export function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

export const DEFAULT_PATHS = { DATA_PATH: './data', HUB_CONFIG: './mcp.json' } as const;

/** DATA_PATH or HUB_CONFIG, absolute, as `settingsFromEnvironment` reads it. */
export function settingPath(env: NodeJS.ProcessEnv, variable: keyof typeof DEFAULT_PATHS, cwd = process.cwd()): string {
  const raw = env[variable]?.trim();
  return absolute(raw ? raw : DEFAULT_PATHS[variable], cwd);
}
