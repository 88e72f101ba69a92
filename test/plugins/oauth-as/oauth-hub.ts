import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Hub } from '../../../core/hub.js';
import { hub, onKernel } from '../../../core/kernel.js';
import { freePort } from '../../helpers/net.js';

export interface OAuthTestHub {
  app: FastifyInstance;
  hub: Hub;
  url: string;
  dataPath: string;
}

/**
 * A hub with oauth-as enabled on 127.0.0.1 whose BASE_URL is its real address (the
 * issuer and resource URLs must be reachable). `/probe/*` asks the hub's authenticator
 * about the resource named in the `x-resource` header, standing in for the MCP
 * endpoints until they land.
 */
export async function startOAuthHub(
  t: { teardown(fn: () => unknown): void },
  options: {
    plugin?: Record<string, unknown>;
    env?: Record<string, string>;
    config?: Record<string, unknown>;
    /** Fastify's `trustProxy`, as the standalone hub sets it from TRUSTED_PROXIES. */
    trustProxy?: string;
    /** The embedding app's own Ajv options, which must not change what the hub's routes accept. */
    ajv?: FastifyServerOptions['ajv'];
  } = {},
): Promise<OAuthTestHub> {
  const dataPath = await mkdtemp(join(tmpdir(), 'oauth-test-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = Fastify({ logger: false, pluginTimeout: 0, ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }), ...(options.ajv && { ajv: options.ajv }) });
  let context: Hub | undefined;
  await app.register(hub, {
    config: { ...options.config, plugins: { 'oauth-as': options.plugin ?? true } },
    env: { DATA_PATH: dataPath, BASE_URL: url, PORT: String(port), HUB_PASSWORD: 'correct horse', ...options.env },
    [onKernel]: (created) => void (context = created),
  });
  app.all('/probe/*', async (request, reply) => {
    const auth = await context?.authenticator.value?.authenticate(request, reply, String(request.headers['x-resource']));
    if (auth) return { clientId: auth.clientId, scopes: auth.scopes, resource: auth.resource?.href, subject: auth.extra?.subject };
    return reply;
  });
  await app.listen({ host: '127.0.0.1', port });
  t.teardown(() => app.close());
  if (!context) throw new Error('the hub plugin did not call setup');
  return { app, hub: context, url, dataPath };
}
