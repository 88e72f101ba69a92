import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AccessAdmin, PluginHub } from '../../core/plugin/index.js';
import { sendApiError } from '../../core/plugin/pages.js';
import { accessSnippets } from './access-snippets.js';
import { CONSOLE_ERROR_CODES } from './errors.js';
import { API } from './servers-api.js';

// Names are checked against the config by the mint's own check; the bounds only keep a body small.
const Name = Type.String({ minLength: 1, maxLength: 200 });
const MintBody = Type.Object(
  {
    label: Type.Optional(Type.String({ maxLength: 200, description: 'A name for the token, shown in the list (who or what holds it).' })),
    expiresInDays: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3650, description: 'Days until it expires; absent: no expiry.' })),
    all: Type.Optional(Type.Boolean({ description: 'Every MCP endpoint (/hub and every /<name>/mcp); excludes "resources".' })),
    resources: Type.Optional(Type.Array(Name, { maxItems: 500, description: 'The endpoints it opens: "hub" for /hub, a server name for /<name>/mcp.' })),
    servers: Type.Optional(Type.Array(Name, { maxItems: 500, description: 'The servers a /hub token reaches; absent: all. Only with "resources" holding "hub".' })),
  },
  { additionalProperties: false },
);
const RevokeBody = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The id of the token (the list shows it).' }) }, { additionalProperties: false });
// A client id is a UUID, or a metadata document's https URL.
const RevokeClientBody = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 2048, description: 'The client_id (the list shows it).' }) }, { additionalProperties: false });

const api = { config: { operatorApi: true } } as const;

/**
 * `GET`, `POST` and `DELETE /console/api/tokens`, and `GET` and `DELETE /console/api/clients`: the API tokens `hub-admin tokens` lists,
 * mints and revokes, and the OAuth clients `hub-admin clients` lists and revokes, through the same logic (`hub.accessAdmin`, which the plugin issuing
 * them provides). The token's value is in the answer to its `POST` only: no listing holds
 * it, and no log record.
 */
export function registerTokensApi(context: FastifyInstance, hub: PluginHub): void {
  const routes = context.withTypeProvider<TypeBoxTypeProvider>();
  const onRequest = hub.operator.requireApiSession;
  const admin = (reply: FastifyReply): AccessAdmin | undefined => {
    const service = hub.accessAdmin.current;
    if (service === undefined)
      sendApiError(reply, 409, CONSOLE_ERROR_CODES.TOKENS_UNAVAILABLE, 'No plugin issues API tokens in this hub: turn plugin oauth-as on ("plugins": { "oauth-as": {} }) to mint them.');
    return service;
  };

  routes.get(`${API}/tokens`, { ...api, onRequest }, async (_request, reply) => {
    const service = admin(reply);
    if (service === undefined) return reply;
    const tokens = (await service.listTokens()).map((token) => ({
      id: token.id,
      label: token.label ?? null,
      issuer: token.issuer,
      issuedAt: token.issuedAt.toISOString(),
      expiresAt: token.expiresAt?.toISOString() ?? null,
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
      resources: token.resources ?? null,
      servers: token.servers ?? null,
      revoked: token.revoked,
    }));
    const servers = hub.servers.list().map((server) => ({ name: server.name, hub: !server.hidden }));
    return reply.header('cache-control', 'no-store').send({ tokens, servers });
  });

  routes.post(`${API}/tokens`, { ...api, onRequest, schema: { body: MintBody } }, async (request, reply) => {
    const service = admin(reply);
    if (service === undefined) return reply;
    const { label, ...reach } = request.body;
    const answer = await service.mintToken({ ...reach, ...(label?.trim() && { label: label.trim() }) });
    if ('refused' in answer) return sendApiError(reply, 422, CONSOLE_ERROR_CODES.TOKEN_REFUSED, `No token was minted: ${answer.refused}.`);
    const { minted } = answer;
    request.log.info({ tokenId: minted.id, label: label?.trim() || undefined, opens: minted.opens }, `console: API token ${minted.id} minted, opening ${minted.opens}`);
    const url = minted.endpoints[0] ?? `${minted.issuer}/hub`;
    const name = /\/([^/]+)\/mcp$/.exec(url)?.[1] ?? 'hub';
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send({
        token: minted.token,
        id: minted.id,
        issuer: minted.issuer,
        expiresAt: minted.expiresAt?.toISOString() ?? null,
        opens: minted.opens,
        endpoints: minted.endpoints,
        snippets: accessSnippets(name, url, minted.token),
      });
  });

  routes.delete(`${API}/tokens`, { ...api, onRequest, schema: { body: RevokeBody } }, async (request, reply) => {
    const service = admin(reply);
    if (service === undefined) return reply;
    // By id only: a token's value sent here would be one more place it travels.
    const revoked = request.body.id.includes('.') ? undefined : await service.revokeToken(request.body.id);
    if (revoked === undefined) return sendApiError(reply, 404, CONSOLE_ERROR_CODES.TOKEN_NOT_FOUND, `No API token ${request.body.id} was minted with this hub's store (the list shows the ids).`);
    request.log.info({ tokenId: revoked }, `console: API token ${revoked} revoked`);
    return reply.header('cache-control', 'no-store').send({ revoked });
  });

  // The OAuth clients `hub-admin clients list` lists; a revocation withdraws every token a client holds, as `hub-admin clients revoke` does.
  routes.get(`${API}/clients`, { ...api, onRequest }, async (_request, reply) => {
    const service = admin(reply);
    if (service === undefined) return reply;
    const clients = (await service.listClients()).map((client) => ({
      clientId: client.clientId,
      name: client.name ?? null,
      source: client.source,
      redirectUris: client.redirectUris,
      issuedAt: client.issuedAt.toISOString(),
      tokensRevokedAt: client.tokensRevokedAt?.toISOString() ?? null,
    }));
    return reply.header('cache-control', 'no-store').send({ clients });
  });

  routes.delete(`${API}/clients`, { ...api, onRequest, schema: { body: RevokeClientBody } }, async (request, reply) => {
    const service = admin(reply);
    if (service === undefined) return reply;
    const { clientId } = request.body;
    if (!(await service.revokeClient(clientId)))
      return sendApiError(reply, 404, CONSOLE_ERROR_CODES.CLIENT_NOT_FOUND, `No OAuth client ${clientId} is registered with this hub (the list shows them).`);
    request.log.info({ clientId }, `console: every token of OAuth client ${clientId} revoked`);
    return reply.header('cache-control', 'no-store').send({ revoked: clientId });
  });
}
