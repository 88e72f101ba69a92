import { Type } from 'typebox';
import { ClientCredentialFields, type ClientAuthenticator } from './client-auth.js';
import type { TokenService } from './tokens.js';
import { KeywordParameter, type Routes } from './validation.js';

/** RFC 7009 section 2.1. The token is only hashed; the bound leaves room for another server's JWT sent by mistake (answered 200). */
const RevocationRequest = Type.Object({
  token: Type.String({ maxLength: 8192 }),
  token_type_hint: Type.Optional(KeywordParameter),
  ...ClientCredentialFields,
});

/** RFC 7009: revokes only the one token presented, and only the requester's own. */
export function registerRevocation(app: Routes, clients: ClientAuthenticator, tokens: TokenService): void {
  app.post('/revoke', { schema: { body: RevocationRequest } }, async (request, reply) => {
    const body = request.body;
    const client = await clients.authenticate(body, request.headers.authorization);
    await tokens.revoke(body.token, client.clientId);
    return reply.code(200).header('cache-control', 'no-store').send();
  });
}
