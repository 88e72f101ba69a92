import { isAbsolute, resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { LimitSettings, limitSettingsFromEnvironment } from './limits/settings.js';

export const HubSettings = Type.Object({
  host: Type.String({ default: '127.0.0.1', description: 'HOST: the address to listen on.' }),
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'PORT: the port to listen on.' }),
  baseUrl: Type.String({ description: 'BASE_URL: the public base URL; default http://HOST:PORT.' }),
  dataPath: Type.String({ description: 'DATA_PATH: snapshots, the embedded store and keys; default ./data.' }),
  configFile: Type.String({ description: 'HUB_CONFIG: path of the config file; default ./mcp.json.' }),
  idleTimeoutMinutes: Type.Number({ minimum: 0, description: 'IDLE_TIMEOUT_MINUTES: an on-demand server sleeps after this long unused; 0 never; default 60.' }),
  callTimeoutMs: Type.Integer({ minimum: 1, description: 'TOOL_CALL_TIMEOUT_MS: a tool call fails after this long without progress; default 300000 (5 minutes).' }),
  // Limits per client and per process (core/limits/settings.ts).
  ...LimitSettings.properties,
});
export type HubSettings = Static<typeof HubSettings>;

/** The operator interface's environment variables, with their documented defaults. */
export function settingsFromEnvironment(env: NodeJS.ProcessEnv, cwd = process.cwd()): HubSettings {
  const host = env.HOST || '127.0.0.1';
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    baseUrl: (env.BASE_URL || `http://${urlHost}:${port}`).replace(/\/+$/, ''),
    dataPath: absolute(env.DATA_PATH || './data', cwd),
    configFile: absolute(env.HUB_CONFIG || './mcp.json', cwd),
    idleTimeoutMinutes: idleMinutes(env.IDLE_TIMEOUT_MINUTES),
    callTimeoutMs: Number(env.TOOL_CALL_TIMEOUT_MS) > 0 ? Math.floor(Number(env.TOOL_CALL_TIMEOUT_MS)) : 300_000,
    ...limitSettingsFromEnvironment(env),
  };
}

/** A malformed value falls back to the default rather than disabling sleep by accident. */
function idleMinutes(value: string | undefined): number {
  const minutes = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(minutes) && minutes >= 0 ? minutes : 60;
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
