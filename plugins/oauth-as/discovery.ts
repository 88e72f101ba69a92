import { Type } from 'typebox';
import type { Endpoints } from './endpoints.js';
import { ASSERTION_ALGORITHMS } from './client-auth.js';
import type { Routes } from './validation.js';

/** RFC 8414 metadata: computed once and served as the same bytes everywhere it appears. */
export function authorizationServerMetadata(endpoints: Endpoints, dynamicRegistration: boolean): string {
  return JSON.stringify({
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    ...(dynamicRegistration ? { registration_endpoint: endpoints.registration } : {}),
    revocation_endpoint: endpoints.revocation,
    jwks_uri: endpoints.jwks,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'private_key_jwt'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  });
}

/**
 * Discovery: RFC 8414 at the plain and path-inserted well-known locations, the OpenID
 * alias with identical bytes, RFC 9728 for `/hub` and every `/<name>/mcp`, and an empty
 * key set (access tokens are opaque; nothing a third party could verify).
 */
export function registerDiscovery(app: Routes, endpoints: Endpoints, dynamicRegistration: boolean): void {
  // Made once the base URL is settled (it may be known only once the hub listens), then the same bytes.
  let metadata: { issuer: string; body: string } | undefined;
  const currentMetadata = () => {
    if (metadata?.issuer !== endpoints.issuer) metadata = { issuer: endpoints.issuer, body: authorizationServerMetadata(endpoints, dynamicRegistration) };
    return metadata.body;
  };
  const json = (body: string) => async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('application/json').header('access-control-allow-origin', '*').header('cache-control', 'max-age=300').send(body);

  for (const base of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    app.get(base, (request, reply) => json(currentMetadata())(request, reply));
    app.get(`${base}/*`, (request, reply) => json(currentMetadata())(request, reply));
  }

  const protectedResource = (path: string) => async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const resource = endpoints.resource(`${endpoints.issuer}${path}`);
    if (!resource) return reply.code(404).send({ error: 'not_found' });
    return json(
      JSON.stringify({
        resource,
        authorization_servers: [endpoints.issuer],
        bearer_methods_supported: ['header'],
        resource_name: path === '/hub' ? 'MCP hub' : `MCP server ${path.split('/')[1] ?? ''}`,
      }),
    )(_request, reply);
  };
  app.get('/.well-known/oauth-protected-resource', protectedResource('/hub'));
  app.get('/.well-known/oauth-protected-resource/hub', protectedResource('/hub'));
  app.get('/.well-known/oauth-protected-resource/:name/mcp', { schema: { params: Type.Object({ name: Type.String() }) } }, (request, reply) =>
    protectedResource(`/${request.params.name}/mcp`)(request, reply),
  );

  app.get('/jwks', json(JSON.stringify({ keys: [] })));
}
