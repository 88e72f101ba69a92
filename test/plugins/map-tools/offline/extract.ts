import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from this file compiled under dist/test/plugins/map-tools/offline/. */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** The Monaco extract the project ships for its tests (test/fixtures/osm/, with its ODbL notice). */
export const MONACO_PBF = resolve(repoRoot, 'test/fixtures/osm/monaco.osm.pbf');

/**
 * Real positions of well-known places in Monaco (from their published coordinates), to
 * check geocoding against the ground rather than against the engine's own answer.
 */
export const KNOWN_PLACES = {
  stadium: { query: 'Stade Louis II', lat: 43.7276, lon: 7.4155 },
  museum: { query: 'Musée Océanographique', lat: 43.7307, lon: 7.4253 },
  square: { query: 'Place du Casino', lat: 43.7394, lon: 7.4275 },
} as const;

/** A point far out at sea, kilometers from any road. */
export const AT_SEA = { lat: 43.69, lon: 7.42 };
