import type { FastifyInstance } from 'fastify';
import type { PluginHub } from '../../core/plugin/index.js';
import type { CallRate, LastMinute } from './call-rate.js';
import { API } from './servers-api.js';

export interface HubOverview {
  version: string;
  /** When the console started, with the hub (ISO 8601), and the seconds since. */
  startedAt: string;
  uptimeSeconds: number;
  /** Each MCP revision the hub speaks, and to whom: callers (its endpoints) and servers (its children). */
  revisions: { revision: string; callers: boolean; servers: boolean }[];
  /** The plugins running, in the order they were registered. */
  plugins: readonly string[];
  /** Null with `callsKept: 0`, when the console listens to no call. */
  lastMinute: LastMinute | null;
  /** The hub's process (shared with the app it is embedded in, if any). */
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number };
}

/** `GET /console/api/overview`: the hub as a whole, for the overview's first lines; read on every refresh, so it only reads what is at hand. */
export function registerOverviewApi(context: FastifyInstance, hub: PluginHub, rate: CallRate | undefined, startedAt: number, now: () => number = Date.now): void {
  context.get(`${API}/overview`, { config: { operatorApi: true }, onRequest: hub.operator.requireApiSession }, async (_request, reply) => {
    const { rss, heapUsed, heapTotal } = process.memoryUsage();
    const overview: HubOverview = {
      version: hub.version,
      startedAt: new Date(startedAt).toISOString(),
      uptimeSeconds: Math.floor((now() - startedAt) / 1000),
      revisions: hub.revisions.values().map(({ revision, callers, child }) => ({ revision, callers: callers !== undefined, servers: child !== undefined })),
      plugins: hub.loadedPlugins,
      lastMinute: rate?.lastMinute() ?? null,
      memory: { rssBytes: rss, heapUsedBytes: heapUsed, heapTotalBytes: heapTotal },
    };
    return reply.header('cache-control', 'no-store').send(overview);
  });
}
