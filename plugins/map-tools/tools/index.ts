import type { ToolName } from '../schemas.js';
import { findNearbyPois } from './find-nearby-pois.js';
import { geocode } from './geocode.js';
import { isochrone } from './isochrone.js';
import { mapLink } from './map-link.js';
import { optimizeRoute } from './optimize-route.js';
import { poiDetails } from './poi-details.js';
import { reverseGeocode } from './reverse-geocode.js';
import { route } from './route.js';
import { routeMatrix } from './route-matrix.js';
import { straightLineDistance } from './straight-line-distance.js';
import { suggestMeetingPoint } from './suggest-meeting-point.js';
import type { MapTool } from './tool.js';

export const MAP_TOOLS: { [Name in ToolName]: MapTool<Name> } = {
  geocode,
  reverse_geocode: reverseGeocode,
  route,
  route_matrix: routeMatrix,
  optimize_route: optimizeRoute,
  isochrone,
  find_nearby_pois: findNearbyPois,
  poi_details: poiDetails,
  suggest_meeting_point: suggestMeetingPoint,
  straight_line_distance: straightLineDistance,
  map_link: mapLink,
};
