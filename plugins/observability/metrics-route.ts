import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromThisMachine, hashSecret, secretMatches } from '../../core/plugin/auth.js';
import type { PluginHub } from '../../core/plugin/index.js';
import type { HubMetrics } from './metrics.js';

/**
 * `GET /metrics`. Without METRICS_TOKEN, open to a scraper on this machine: a loopback
 * peer that sent no forwarding header (a reverse proxy on the same host forwards others'
 * requests from loopback, and says so). With METRICS_TOKEN set the token is required from
 * loopback too: an operator who sets one means it. Anyone else needs `Authorization: Bearer` with METRICS_TOKEN
 * (for a scraper that should hold nothing more) or an operator API token, checked before
 * anything is gathered; or METRICS_PUBLIC=true, when METRICS_TOKEN is unset, opens it to all.
 */
export function registerMetricsRoute(app: FastifyInstance, hub: PluginHub, metrics: HubMetrics): void {
  const metricsToken = hub.env.METRICS_TOKEN?.trim();
  const metricsTokenHash = metricsToken ? hashSecret(metricsToken) : undefined;
  const open = metricsTokenHash === undefined && hub.env.METRICS_PUBLIC?.trim().toLowerCase() === 'true';
  const local = (request: FastifyRequest): boolean => metricsTokenHash === undefined && fromThisMachine(request.raw);

  const allowed = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== undefined && metricsTokenHash !== undefined && secretMatches(bearer, metricsTokenHash)) return true;
    const authenticator = hub.authenticator.current;
    if (authenticator && bearer !== undefined) {
      const caller = await authenticator.authenticate(request, reply, `${hub.settings.baseUrl}/metrics`);
      if (caller === undefined) return false;
      if (caller.clientId.startsWith('api-token:')) return true;
    }
    void reply
      .code(401)
      .header('www-authenticate', 'Bearer')
      .header('cache-control', 'no-store')
      .send({ error: 'unauthorized', error_description: 'metrics need METRICS_TOKEN or an API token (hub-admin tokens mint) as a bearer token' });
    return false;
  };

  // Scraped every few seconds: its access records are at debug.
  app.get('/metrics', { config: { accessLog: 'debug' } }, async (request, reply) => {
    if (!open && !local(request) && !(await allowed(request, reply))) return reply;
    metrics.sync();
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
