import type { MapSettings } from '../settings.js';
import { ResponseCache } from './cache.js';
import { ServiceClient } from './http.js';
import { NominatimGeocoder } from './nominatim.js';
import { OpenRouteService } from './openrouteservice.js';
import { OsrmRouter } from './osrm.js';
import { OverpassSource } from './overpass.js';
import { PhotonGeocoder } from './photon.js';
import type { ProviderSet } from './types.js';
import { ValhallaIsochrones } from './valhalla.js';

/**
 * What `../offline/index.js` exports: the same provider set answered from a local
 * `.osm.pbf` file. Imported only when `MAP_OSM_FILE` is set, so its parser costs nothing
 * otherwise.
 */
export interface OfflineModule {
  createOfflineProviders(file: string, options: StartOptions): Promise<ProviderSet>;
}

export interface StartOptions {
  /** Where start-up and progress lines go. */
  log: (line: string) => void;
  /** Stops a load under way (the server is closing). */
  signal?: AbortSignal;
}

/** The one place that decides which engines answer the tools. */
export async function selectProviders(settings: MapSettings, options: StartOptions): Promise<ProviderSet> {
  if (settings.osmFile) {
    const specifier = '../offline/index.js';
    const offline = (await import(specifier)) as OfflineModule;
    return offline.createOfflineProviders(settings.osmFile, options);
  }
  return webProviders(settings);
}

/** The public web services (or the ones the environment points at). */
export function webProviders(settings: MapSettings): ProviderSet {
  const cache = new ResponseCache(settings.cacheTtlMs);
  const client = (service: string, overrides: { minIntervalMs?: number; maxConcurrent?: number; timeoutMs?: number; secrets?: string[] } = {}) =>
    new ServiceClient({
      service,
      userAgent: settings.userAgent,
      minIntervalMs: settings.requestIntervalMs,
      maxConcurrent: Number.POSITIVE_INFINITY,
      timeoutMs: settings.timeoutMs,
      cache,
      ...overrides,
    });
  const router = new OsrmRouter(client('routing engine'), settings.osrmUrl);
  const key = settings.altRoutingApiKey;
  const alternative = key ? new OpenRouteService(client('alternative routing service', { secrets: [key] }), settings.altRoutingUrl, key) : undefined;
  const isochrone = alternative ?? new ValhallaIsochrones(client('isochrone engine'), settings.valhallaUrl);
  const pois = new OverpassSource(client('map-data query service', { minIntervalMs: 0, maxConcurrent: settings.overpassConcurrency, timeoutMs: settings.overpassTimeoutMs }), settings.overpassUrls);
  return {
    geocoders: {
      geocoder_a: new NominatimGeocoder(client('geocoder_a'), settings.nominatimUrl),
      geocoder_b: new PhotonGeocoder(client('geocoder_b'), settings.photonUrl),
    },
    router,
    routes: alternative ?? router,
    isochrone,
    pois,
    alternativeRouting: alternative !== undefined,
    description: alternative ? 'web services; route and isochrone through the alternative routing service' : 'web services',
  };
}
