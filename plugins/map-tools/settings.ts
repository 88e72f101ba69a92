import { accessSync, constants } from 'node:fs';
import { MAP_ERROR_CODES } from './error-codes.js';
import { HUB_VERSION, StartupError } from '../../core/plugin/errors.js';

/** The map tools' environment, read once; every name is documented in the README. */
export interface MapSettings {
  userAgent: string;
  nominatimUrl: string;
  photonUrl: string;
  /** May contain `{profile}`, replaced by `car`, `foot` or `bike`. */
  osrmUrl: string;
  valhallaUrl: string;
  overpassUrls: string[];
  altRoutingUrl: string;
  altRoutingApiKey: string | undefined;
  requestIntervalMs: number;
  cacheTtlMs: number;
  timeoutMs: number;
  overpassTimeoutMs: number;
  overpassConcurrency: number;
  allowTools: string | undefined;
  denyTools: string | undefined;
  osmFile: string | undefined;
}

export const DEFAULT_SETTINGS = {
  nominatimUrl: 'https://nominatim.openstreetmap.org',
  photonUrl: 'https://photon.komoot.io',
  osrmUrl: 'https://routing.openstreetmap.de/routed-{profile}',
  valhallaUrl: 'https://valhalla1.openstreetmap.de',
  overpassUrls: 'https://overpass-api.de/api/interpreter,https://overpass.private.coffee/api/interpreter',
  altRoutingUrl: 'https://api.openrouteservice.org',
} as const;

export function mapSettingsFromEnvironment(env: NodeJS.ProcessEnv): MapSettings {
  const text = (name: string, fallback: string) => (env[name]?.trim() ? env[name].trim() : fallback);
  const number = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new StartupError(`${name} must be a non-negative number, got "${raw}"`, { code: MAP_ERROR_CODES.SETTING_INVALID });
    return value;
  };
  return {
    userAgent: text('MAP_USER_AGENT', `mcp-hub-map-tools/${HUB_VERSION} (MCP map and routing tools; set MAP_USER_AGENT to add a contact)`),
    nominatimUrl: stripSlash(text('MAP_NOMINATIM_URL', DEFAULT_SETTINGS.nominatimUrl)),
    photonUrl: stripSlash(text('MAP_PHOTON_URL', DEFAULT_SETTINGS.photonUrl)),
    osrmUrl: stripSlash(text('MAP_OSRM_URL', DEFAULT_SETTINGS.osrmUrl)),
    valhallaUrl: stripSlash(text('MAP_VALHALLA_URL', DEFAULT_SETTINGS.valhallaUrl)),
    overpassUrls: text('MAP_OVERPASS_URLS', DEFAULT_SETTINGS.overpassUrls)
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== ''),
    altRoutingUrl: stripSlash(text('MAP_ALT_ROUTING_URL', DEFAULT_SETTINGS.altRoutingUrl)),
    altRoutingApiKey: env.ALT_ROUTING_API_KEY?.trim() || undefined,
    requestIntervalMs: number('MAP_REQUEST_INTERVAL_MS', 1000),
    cacheTtlMs: number('MAP_CACHE_TTL_MS', 10 * 60 * 1000),
    timeoutMs: number('MAP_TIMEOUT_MS', 15_000),
    overpassTimeoutMs: number('MAP_OVERPASS_TIMEOUT_MS', 30_000),
    overpassConcurrency: Math.max(1, Math.min(2, number('MAP_OVERPASS_CONCURRENCY', 2))),
    allowTools: env.MAP_ALLOW_TOOLS,
    denyTools: env.MAP_DENY_TOOLS,
    osmFile: readableFile('MAP_OSM_FILE', env.MAP_OSM_FILE?.trim() || undefined),
  };
}

/** The path when it can be read; a missing or unreadable extract fails start-up with the cause, not the first call. */
function readableFile(name: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw new StartupError(`${name}: cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { code: MAP_ERROR_CODES.EXTRACT_UNREADABLE, cause: error });
  }
  return path;
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
