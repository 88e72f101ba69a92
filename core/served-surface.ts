import type { FastifyBaseLogger } from 'fastify';
import { HUB_ERROR_CODES, StartupError } from './errors.js';
import type { Hub } from './hub.js';
import { servedRevisions } from './revisions/served-revision.js';

/** The revision most servers speak today; a hub that speaks it to no server cannot reach them. */
const WIDESPREAD_REVISION = '2025-11-25';

/**
 * Per-deployment switches that would leave nothing working are refused at start, or said
 * at start, rather than found by the first caller: no revision served to callers (every
 * endpoint would refuse every client), and no server reachable on the revision most of
 * them speak.
 */
export function checkServedSurface(hub: Hub, log: FastifyBaseLogger, configuredServers: number): void {
  if (servedRevisions(hub.revisions.values()).length === 0) {
    const childOnly = hub.revisions.values().map(({ revision }) => revision);
    const kept = childOnly.length > 0 ? ` (${childOnly.join(', ')} ${childOnly.length === 1 ? 'is' : 'are'} spoken to servers only: "callers": false)` : '';
    throw new StartupError(
      `no MCP revision is served to callers${kept}, so no client could use /hub or any /<name>/mcp; enable a revision plugin for callers ("mcp-2026-07-28" or "mcp-2025-11-25" in "plugins", without "callers": false)`,
      { code: HUB_ERROR_CODES.NO_REVISION },
    );
  }
  if (hub.metaTools.values().length === 0) {
    log.info('no plugin adds a tool to /hub (meta-tools is disabled): /hub is not served; each server stays at /<name>/mcp');
  }
  if (configuredServers > 0 && hub.children.wires.wireFor(WIDESPREAD_REVISION) === undefined) {
    log.warn(
      { spokenToServers: hub.children.wires.names },
      `MCP ${WIDESPREAD_REVISION} is spoken to no server (is mcp-2025-11-25 disabled?): servers that speak only ${WIDESPREAD_REVISION}, most of them today, are unreachable; each is named in a warning when first tried`,
    );
  }
}
