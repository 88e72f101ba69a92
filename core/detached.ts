import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { HUB_ERROR_CODES, HubError } from './errors.js';
import type { Hub } from './hub.js';
import { hub, type HubPluginOptions, onKernel } from './kernel.js';

/**
 * The hub built from the same config and environment as the HTTP server, but not
 * listening: what `hub-admin` and `hub-stdio` run against.
 */
export async function openDetachedHub(env: NodeJS.ProcessEnv, logger: FastifyServerOptions['logger'] = false, admin?: HubPluginOptions['admin']): Promise<{ app: FastifyInstance; hub: Hub }> {
  const app = Fastify({ logger, pluginTimeout: 0 });
  let context: Hub | undefined;
  await app.register(hub, { env: env as Record<string, string>, [onKernel]: (created) => void (context = created), ...(admin && { admin }) });
  await app.ready();
  if (!context) throw new HubError(HUB_ERROR_CODES.INTERNAL, 'the hub plugin did not call setup');
  return { app, hub: context };
}
