import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PluginHub } from '../../core/plugin/index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import { sendApiError } from '../../core/plugin/pages.js';
import { CONSOLE_ERROR_CODES } from './errors.js';
import { API } from './servers-api.js';

export const SERVER_ACTIONS = ['wake', 'sleep', 'restart'] as const;
export type ServerAction = (typeof SERVER_ACTIONS)[number];

const ActionParams = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  // Spelled out: a Union over `SERVER_ACTIONS.map` types the parameter as `never`.
  action: Type.Union([Type.Literal('wake'), Type.Literal('sleep'), Type.Literal('restart')]),
});
const DONE: Record<ServerAction, string> = { wake: 'woken', sleep: 'put to sleep', restart: 'restarted' };

/** What the console offers for a server in its status: wake a resting on-demand one, sleep an up one, restart one that ran or failed. */
export function actionsFor(server: Pick<ServerView, 'alwaysRunning' | 'status'>): ServerAction[] {
  const actions: ServerAction[] = [];
  if (!server.alwaysRunning && (server.status === 'sleeping' || server.status === 'stopped' || server.status === 'down')) actions.push('wake');
  if (!server.alwaysRunning && server.status === 'up') actions.push('sleep');
  if (server.status === 'up' || server.status === 'down' || server.status === 'stopped') actions.push('restart');
  return actions;
}

/**
 * `POST /console/api/servers/<name>/<wake|sleep|restart>`: what the status page's buttons
 * did, for the console's overview and servers views. The answer waits for the action (a
 * wake answers once the server is up, or with why it did not come up).
 */
export function registerServerActions(context: FastifyInstance, hub: PluginHub): void {
  const routes = context.withTypeProvider<TypeBoxTypeProvider>();
  routes.post(`${API}/servers/:name/:action`, { config: { operatorApi: true }, onRequest: hub.operator.requireApiSession, schema: { params: ActionParams } }, async (request, reply) => {
    const { name, action } = request.params;
    const server = hub.servers.get(name);
    if (!server) return sendApiError(reply, 404, CONSOLE_ERROR_CODES.SERVER_NOT_FOUND, `No server "${name}" is running in the hub.`);
    if (!actionsFor(server).includes(action))
      return sendApiError(reply, 409, CONSOLE_ERROR_CODES.ACTION_REFUSED, `Server ${name} is ${server.status}${server.alwaysRunning ? ' and always running' : ''}: it cannot be ${DONE[action]} now.`);
    request.log.info({ server: name, action }, 'console: operator action');
    try {
      if (action === 'wake') await server.ensureUp();
      else if (action === 'sleep') await server.sleep();
      else await server.restart();
    } catch (error) {
      return sendApiError(reply, 502, CONSOLE_ERROR_CODES.ACTION_FAILED, `Could not ${action} ${name}: ${(error as Error).message}`);
    }
    return reply.header('cache-control', 'no-store').send({ server: name, action, status: server.status, message: `Server ${name} ${DONE[action]}.` });
  });
}
