/** The entry point `../providers/select.ts` imports lazily when `MAP_OSM_FILE` is set. */
export { createOfflineProviders } from './providers.js';
