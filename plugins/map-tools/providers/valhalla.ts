import type { Budget, IsochroneEngine, LatLon, Profile } from './types.js';
import type { ServiceClient } from './http.js';
import { expectShape, round } from './wire.js';
import { ringsOf, GeoJsonFeatures } from './geojson.js';

const COSTING: Record<Profile, string> = { foot: 'pedestrian', car: 'auto', bike: 'bicycle' };

/** The isochrone engine: the Valhalla `/isochrone` API, answered as GeoJSON polygons. */
export class ValhallaIsochrones implements IsochroneEngine {
  constructor(
    private readonly client: ServiceClient,
    private readonly baseUrl: string,
  ) {}

  async reachable(center: LatLon, profile: Profile, budget: Budget): Promise<LatLon[][]> {
    const contour = 'seconds' in budget ? { time: budget.seconds / 60 } : { distance: budget.meters / 1000 };
    const body = JSON.stringify({
      locations: [{ lat: round(center.lat), lon: round(center.lon) }],
      costing: COSTING[profile],
      contours: [contour],
      polygons: true,
    });
    const answer = await this.client.json({ url: new URL(`${this.baseUrl}/isochrone`), method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return ringsOf(expectShape(this.client.service, GeoJsonFeatures, answer));
  }
}
