import type { FastifyInstance } from 'fastify';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml } from '../../core/plugin/pages.js';
import { statusData, type StatusSources } from './status-data.js';

/** Where the operator console shows the status (plugin `console`, the one operator UI). */
const CONSOLE_OVERVIEW = '/console/overview';

/**
 * `/status.json` for the operator's scripts and the console's overview, behind the hub's
 * operator login (`hub.operator`), from `statusData`: every server with its status and why,
 * its calls and errors in the last hour with p50 and p99, restarts and crashes, its last
 * start and last failure, and per tool since the start; the last config reload; what waits
 * for the operator on the other pages (`OperatorPage.attention`); and how often a page of it
 * reloads. `/status`, the page it was drawn on before the console, sends the operator to the
 * console's overview (the query string kept), behind the login so that a login started
 * there comes back through it.
 */
export async function registerStatusPage(app: FastifyInstance, hub: PluginHub, sources: StatusSources, refreshSeconds: number): Promise<void> {
  const { operator } = hub;
  await operator.pages(app, (pages) => {
    pages.get('/status', { onRequest: operator.requireSession }, async (request, reply) => {
      if (!hub.pages.values().some((page) => page.path === '/console')) {
        return operator.sendPage(
          reply,
          404,
          'No status page',
          `<p>The status is shown by the operator console, which is off here (<code>"plugins": { "console": false }</code>). The same figures are at <a href="${escapeHtml(
            operator.url('/status.json'),
          )}">/status.json</a>.</p>`,
        );
      }
      const query = request.url.indexOf('?');
      return reply.redirect(`${operator.url(CONSOLE_OVERVIEW)}${query === -1 ? '' : request.url.slice(query)}`, 303);
    });
    pages.get('/status.json', { onRequest: operator.requireSession }, async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ ...(await statusData(hub, sources, Date.now())), refreshSeconds }),
    );
  });
}
