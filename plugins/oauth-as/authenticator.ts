import type { AuthInfo } from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokens } from './api-tokens.js';
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
  return {
    async authenticate(request: FastifyRequest, reply: FastifyReply, resourceUrl: string): Promise<AuthInfo | undefined> {
      const { resource, url } = resourceOf(resourceUrl);
      const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const refuse = (error?: string, description?: string) => {
        if (hub.observe.authFailure.active) hub.observe.authFailure.publish({ reason: error ?? 'missing_token' });
        const parameters = [`resource_metadata="${endpoints.resourceMetadata(resource)}"`, ...(error ? [`error="${error}"`, `error_description="${description}"`] : [])];
        void reply
          .code(401)
          .header('www-authenticate', `Bearer ${parameters.join(', ')}`)
          .header('cache-control', 'no-store')
          .send({ error: error ?? 'unauthorized', error_description: description ?? 'a bearer token is required' });
        return undefined;
      };
      if (!token) return refuse();

      if (token.includes('.')) {
        const api = await apiTokens.verify(token);
        if (!api.ok) return refuse('invalid_token', `the token is not valid: ${api.reason}`);
        if (api.resources && !api.resources.includes(resource)) return refuse('invalid_token', `the token is not valid for this resource (API token ${api.id} is for ${api.resources.join(', ')})`);
        apiTokens.noteUse(api.id);
        return {
          token,
          clientId: `api-token:${api.id}`,
          scopes: [],
          resource: url,
          expiresAt: api.expiresAt ?? Number.MAX_SAFE_INTEGER,
          extra: { subject: SUBJECT, ...(api.servers && { [CALLER_SERVERS_KEY]: api.servers }) },
        };
      }
      const record = await tokens.verify(token, resource);
      if (!record) return refuse('invalid_token', 'the token is not valid for this resource');
      return {
        token,
        clientId: record.clientId,
        scopes: record.scope ? record.scope.split(' ') : [],
        expiresAt: Math.floor(record.expiresAt.getTime() / 1000),
        resource: url,
        extra: { subject: SUBJECT },
      };
    },
  };
}
