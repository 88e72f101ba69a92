import Fastify, { type FastifyInstance } from 'fastify';
import { hub } from 'mcp-switchyard';

/**
 * An existing Fastify application with a route of its own, and the hub mounted
 * under `/tools`: its health check, MCP endpoints and OAuth pages all live there.
 */
export async function buildApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  // The hub loads its plugins as it registers, which on a busy machine can outlast
  // Fastify's default 10 s plugin timeout.
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  app.get('/hello', async () => ({ hello: 'from the host application' }));
  await app.register(hub, {
    prefix: '/tools',
    env,
    config: {
      mcpServers: {},
      // The example runs on loopback without OAuth; keep it on for anything public.
      plugins: { 'oauth-as': false },
    },
  });
  return app;
}
