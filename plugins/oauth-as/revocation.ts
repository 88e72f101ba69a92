import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import Value from 'typebox/value';
import type { ClientAuthenticator } from './client-auth.js';
import { OAuthError } from './errors.js';
import type { TokenService } from './tokens.js';

const RevocationRequest = Type.Object({
  token: Type.String(),
  token_type_hint: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
  client_assertion_type: Type.Optional(Type.String()),
  client_assertion: Type.Optional(Type.String()),
});

/** RFC 7009: revokes only the one token presented, and only the requester's own. */
export function registerRevocation(app: FastifyInstance, clients: ClientAuthenticator, tokens: TokenService): void {
  app.post('/revoke', async (request, reply) => {
    const body = request.body;
    if (!Value.Check(RevocationRequest, body)) throw new OAuthError('invalid_request', 'token is required');
    const client = await clients.authenticate(body, request.headers.authorization);
    await tokens.revoke(body.token, client.clientId);
    return reply.code(200).header('cache-control', 'no-store').send();
  });
}
