import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ClientCredentialFields, type ClientAuthenticator } from './client-auth.js';
import type { Endpoints } from './endpoints.js';
import { OAuthError } from './errors.js';
import type { Collections } from './records.js';
import type { TokenService } from './tokens.js';
import { KeywordParameter, SecretParameter, UrlParameter, type Routes } from './validation.js';
import { hashSecret } from '../../core/plugin/auth.js';
import type { PluginHub } from '../../core/plugin/index.js';

/** RFC 6749 section 4.1.3 and 6, RFC 7636 (a verifier has 43 to 128 characters), RFC 8707. */
const TokenRequest = Type.Object({
  grant_type: KeywordParameter,
  code: Type.Optional(SecretParameter),
  redirect_uri: Type.Optional(UrlParameter),
  code_verifier: Type.Optional(Type.String({ maxLength: 128 })),
  refresh_token: Type.Optional(SecretParameter),
  resource: Type.Optional(UrlParameter),
  scope: Type.Optional(Type.String({ maxLength: 1000 })),
  ...ClientCredentialFields,
});
type TokenRequest = Static<typeof TokenRequest>;

/** Sends an OAuth error; anything else is a bug and goes to Fastify's handler. */
export function oauthErrors(app: FastifyInstance, hub: PluginHub): void {
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof OAuthError) {
      if (error.status === 401 && hub.observe.authFailure.active) hub.observe.authFailure.publish({ reason: error.body.error });
      if (error.status === 401) reply.header('www-authenticate', 'Bearer error="invalid_client"');
      return reply.code(error.status).header('cache-control', 'no-store').send(error.body);
    }
    throw error;
  });
}

/** The token endpoint: authorization_code with PKCE S256, and rotating refresh. */
export function registerTokenEndpoint(app: Routes, hub: PluginHub, c: Collections, clients: ClientAuthenticator, tokens: TokenService, endpoints: Endpoints): void {
  app.post('/token', { schema: { body: TokenRequest } }, async (request, reply) => {
    const body = request.body;
    const client = await clients.authenticate(body, request.headers.authorization);
    const resource = body.resource === undefined ? undefined : endpoints.resource(body.resource);
    if (body.resource !== undefined && !resource) throw new OAuthError('invalid_target', 'resource is not an MCP endpoint of this hub');

    let response;
    if (body.grant_type === 'authorization_code') response = await exchangeCode(body, client.clientId, resource, c, tokens);
    else if (body.grant_type === 'refresh_token') {
      if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is missing');
      if (!client.metadata.grant_types.includes('refresh_token')) throw new OAuthError('unauthorized_client', 'this client may not refresh');
      response = await tokens.refresh(body.refresh_token, client.clientId, resource);
      if (hub.observe.tokenRotation.active) hub.observe.tokenRotation.publish({});
    } else throw new OAuthError('unsupported_grant_type', `grant_type ${body.grant_type} is not supported`);
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(response);
  });
}

/**
 * The code is checked before it is used, so a client it was not issued to, or one without
 * its PKCE verifier, changes nothing (a leaked code cannot block the real exchange). Then
 * one atomic update uses it up: of concurrent exchanges exactly one wins, the others are
 * refused. Presented again within the code's own lifetime (with its verifier, so by the
 * client that holds it: a double submit, a retry after a lost answer) it is refused and
 * nothing else happens; presented after that lifetime it is a replay, and the tokens issued
 * from it are revoked (RFC 6749 sections 4.1.2 and 10.5). A used code is kept as long as an
 * access token issued from it lives, to recognise the replay.
 */
async function exchangeCode(body: TokenRequest, clientId: string, resource: string | undefined, c: Collections, tokens: TokenService) {
  if (!body.code || !body.code_verifier) throw new OAuthError('invalid_request', 'code and code_verifier are required');
  const id = hashSecret(body.code);
  const code = await c.codes.findOne({ _id: id });
  if (!code) throw new OAuthError('invalid_grant', 'the authorization code is not valid');
  if (code.clientId !== clientId) throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
  if (code.redirectUri !== body.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (!pkceMatches(body.code_verifier, code.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code challenge');
  if (resource !== undefined && resource !== code.resource) throw new OAuthError('invalid_target', 'resource differs from the authorization request');
  const now = Date.now();

  const familyId = randomUUID();
  const keepUntil = new Date(now + tokens.accessTokenSeconds * 1000);
  const claimed = await c.codes.findOneAndUpdate({ _id: id, used: { $ne: true } }, { $set: { used: true, familyId, expiresAt: keepUntil, validUntil: code.expiresAt } });
  if (!claimed) {
    const used = await c.codes.findOne({ _id: id });
    if (!used || used.validUntil === undefined || used.validUntil.getTime() > now) throw new OAuthError('invalid_grant', 'the authorization code was already used');
    // After the code's lifetime no honest client still holds it: a replay, which withdraws what it gave.
    const issued = await c.codes.findOneAndUpdate({ _id: id, issued: true }, { $set: { replayed: true } });
    if (!issued) throw new OAuthError('invalid_grant', 'the authorization code is being exchanged by another request');
    if (issued.familyId) await tokens.revokeFamily(issued.familyId);
    throw new OAuthError('invalid_grant', 'the authorization code was already used; the tokens issued from it are revoked');
  }
  const response = await tokens.startFamily({ clientId, resource: code.resource, scope: code.scope }, familyId);
  await c.codes.updateMany({ _id: id }, { $set: { issued: true } });
  // The registration is in use now: it no longer expires unused.
  await c.clients.updateMany({ _id: clientId, expiresAt: { $exists: true } }, { $unset: { expiresAt: true } });
  return response;
}

/** RFC 7636 S256. */
function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
