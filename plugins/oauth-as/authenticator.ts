import type { AuthInfo } from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenCheck, ApiTokens } from './api-tokens.js';
import type { Endpoints } from './endpoints.js';
import type { TokenService } from './tokens.js';
import { CALLER_SERVERS_KEY, type RequestAuthenticator } from '../../core/plugin/auth.js';
import type { PluginHub } from '../../core/plugin/index.js';

/** The one subject of every token: there is one shared password and no per-user identity. */
export const SUBJECT = 'hub';

/**
 * The bearer check the MCP endpoints call. The token comes from the Authorization header
 * only and must be for the resource the request arrived on (RFC 8707): an OAuth access
 * token by hashed lookup, or an operator API token by signature, which is for its
 * resources (every endpoint when it names none) and refused elsewhere alike. An API
 * token limited to servers hands their names to the kernel, which holds `/hub` to them.
 */
export function createAuthenticator(hub: PluginHub, endpoints: Endpoints, tokens: TokenService, apiTokens: ApiTokens): RequestAuthenticator {
  // The endpoints' resources, worked out once each: a client can name any server in a path, so the recent ones only.
  const resources = new LRUCache<string, { resource: string; url: URL }>({ max: 1024 });
  const resourceOf = (resourceUrl: string) => {
    let known = resources.get(resourceUrl);
    if (!known) {
      const resource = resourceUrl.replace(/#.*$/, '').replace(/\/+$/, '');
      resources.set(resourceUrl, (known = { resource, url: new URL(resource) }));
    }
    return known;
  };
  // The bearer check runs on every MCP request: without a promise or a closure of its own
  // when the token's check needs no wait (an API token checked a moment ago, see `verifiedNow`).
  const refuse = (reply: FastifyReply, resource: string, error?: string, description?: string): undefined => {
    if (hub.observe.authFailure.active) hub.observe.authFailure.publish({ reason: error ?? 'missing_token' });
    const parameters = [`resource_metadata="${endpoints.resourceMetadata(resource)}"`, ...(error ? [`error="${error}"`, `error_description="${description}"`] : [])];
    void reply
      .code(401)
      .header('www-authenticate', `Bearer ${parameters.join(', ')}`)
      .header('cache-control', 'no-store')
      .send({ error: error ?? 'unauthorized', error_description: description ?? 'a bearer token is required' });
    return undefined;
  };
  const apiTokenCaller = (api: ApiTokenCheck, token: string, reply: FastifyReply, resource: string, url: URL): AuthInfo | undefined => {
    if (!api.ok) return refuse(reply, resource, 'invalid_token', `the token is not valid: ${api.reason}`);
    if (api.resources && !api.resources.includes(resource))
      return refuse(reply, resource, 'invalid_token', `the token is not valid for this resource (API token ${api.id} is for ${api.resources.join(', ')})`);
    apiTokens.noteUse(api.id);
    return {
      token,
      clientId: `api-token:${api.id}`,
      scopes: [],
      resource: url,
      expiresAt: api.expiresAt ?? Number.MAX_SAFE_INTEGER,
      extra: { subject: SUBJECT, ...(api.servers && { [CALLER_SERVERS_KEY]: api.servers }) },
    };
  };
  const accessTokenCaller = async (token: string, reply: FastifyReply, resource: string, url: URL): Promise<AuthInfo | undefined> => {
    const record = await tokens.verify(token, resource);
    if (!record) return refuse(reply, resource, 'invalid_token', 'the token is not valid for this resource');
    return {
      token,
      clientId: record.clientId,
      scopes: record.scope ? record.scope.split(' ') : [],
      expiresAt: Math.floor(record.expiresAt.getTime() / 1000),
      resource: url,
      extra: { subject: SUBJECT },
    };
  };
  return {
    authenticate(request: FastifyRequest, reply: FastifyReply, resourceUrl: string): AuthInfo | undefined | Promise<AuthInfo | undefined> {
      const { resource, url } = resourceOf(resourceUrl);
      const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!token) return refuse(reply, resource);
      if (!token.includes('.')) return accessTokenCaller(token, reply, resource, url);
      const known = apiTokens.verifiedNow(token);
      if (known !== undefined) return apiTokenCaller(known, token, reply, resource, url);
      return apiTokens.verify(token).then((api) => apiTokenCaller(api, token, reply, resource, url));
    },
  };
}
