import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { listenOnLoopback } from '../../helpers/net.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export const SCOPE = 'mcp:tools';

export interface StaticClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: string;
  grant_types: string[];
  redirect_uris?: string[];
  response_types?: string[];
  jwks?: { keys: object[] };
}

export interface UpstreamWorld {
  /** The MCP server's endpoint (the resource). */
  mcpUrl: string;
  issuer: string;
  provider: Provider;
  /** Successful token grants by grant_type. */
  grants: Record<string, number>;
  /** Every bearer token the MCP server saw, accepted or not. */
  seenTokens: string[];
  /**
   * Makes the MCP server refuse this access token from now on, as if it had expired. The
   * first `hold` refusals are held back until that many requests have arrived, so that
   * they all really hit the expired token at once.
   */
  expire(token: string, hold?: number): void;
  /** Requests refused because they carried an expired token. */
  refusedExpired: number;
}

/**
 * A real, independent authorization server (oidc-provider) with dynamic registration
 * and management, PKCE S256, resource indicators (JWT access tokens whose audience is
 * the MCP server), revocation, client_credentials and private_key_jwt; and an MCP
 * server it protects, which publishes RFC 9728 metadata and checks signature, issuer,
 * audience and expiry of every bearer token.
 */
export async function startUpstreamWorld(
  t: Teardown,
  clients: (callback: string) => StaticClient[],
  callback: string,
  /** Client ID Metadata Documents on, fetched through this (the test's https hub has its own CA). */
  metadataDocuments?: { fetch: (url: string, init: RequestInit) => Promise<Response> },
): Promise<UpstreamWorld> {
  const expired = new Set<string>();
  let held: { count: number; release: () => void; released: Promise<void> } | undefined;
  const seenTokens: string[] = [];
  let mcpUrl = '';
  let issuer = '';
  let resourceMetadataUrl = '';
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  const mcp = toNodeHandler(
    createMcpHandler(() => {
      const server = new McpServer({ name: 'protected', title: 'Protected upstream', version: '1.0.0' });
      server.registerTool('secret', { description: 'Answers only with a valid token' }, async () => ({ content: [{ type: 'text', text: 'the secret' }] }));
      return server;
    }),
  );
  const mcpServer = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      if (request.url === '/.well-known/oauth-protected-resource/mcp') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: [SCOPE] }));
        return;
      }
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : undefined;
      if (token) seenTokens.push(token);
      const refuse = (error?: string) => response.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"${error ? `, error="${error}"` : ''}` }).end();
      if (!token) return refuse();
      if (expired.has(token)) {
        world.refusedExpired += 1;
        if (held) {
          held.count -= 1;
          if (held.count <= 0) held.release();
          await held.released;
        }
        return refuse('invalid_token');
      }
      try {
        jwks ??= createRemoteJWKSet(new URL(`${issuer}/jwks`));
        await jwtVerify(token, jwks, { issuer, audience: mcpUrl });
      } catch {
        return refuse('invalid_token');
      }
      await mcp(request, response);
    })();
  });
  const mcpPort = await listenOnLoopback(t, mcpServer);
  mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  resourceMetadataUrl = `http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/mcp`;

  const asServer = createServer();
  const asPort = await listenOnLoopback(t, asServer);
  issuer = `http://127.0.0.1:${asPort}`;
  const provider = new Provider(issuer, {
    clients: clients(callback),
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt'],
    enabledJWA: { clientAuthSigningAlgValues: ['EdDSA', 'Ed25519', 'ES256', 'RS256', 'PS256'] },
    pkce: { required: () => true },
    scopes: [SCOPE],
    cookies: { keys: ['a test cookie key that is long enough'] },
    rotateRefreshToken: true,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86400, ClientCredentials: 3600 },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    issueRefreshToken: async () => true,
    ...(metadataDocuments ? { fetch: metadataDocuments.fetch } : {}),
    features: {
      devInteractions: { enabled: true },
      ...(metadataDocuments ? { clientIdMetadataDocument: { enabled: true, ack: 'draft-02' } } : {}),
      registration: { enabled: true, initialAccessToken: false },
      registrationManagement: { enabled: true, rotateRegistrationAccessToken: false },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== mcpUrl) throw new errors.InvalidTarget('unknown resource');
          return { scope: SCOPE, audience: mcpUrl, accessTokenFormat: 'jwt', accessTokenTTL: 3600, jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
  });
  const grants: Record<string, number> = {};
  const world: UpstreamWorld = {
    mcpUrl,
    issuer,
    provider,
    grants,
    seenTokens,
    expire: (token, hold) => {
      expired.add(token);
      if (!hold) return;
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      // Released by the last expected request, or after a while so a miss fails instead of hanging.
      setTimeout(release, 10_000).unref();
      held = { count: hold, release, released };
    },
    refusedExpired: 0,
  };
  provider.on('grant.success', (ctx: { oidc: { params: { grant_type?: string } } }) => {
    const type = ctx.oidc.params.grant_type ?? 'unknown';
    grants[type] = (grants[type] ?? 0) + 1;
  });
  asServer.on('request', provider.callback());
  return world;
}

/**
 * Completes oidc-provider's development login and consent over plain HTTP, as a
 * browser would, and returns the URL it finally redirects to (the hub's callback).
 */
export async function completeAuthorization(authorizationUrl: string, stopAt: string): Promise<string> {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 1) continue;
      jar.set(pair.slice(0, index).trim(), pair.slice(index + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(stopAt)) return url;
    const response = await fetch(url, { method: body ? 'POST' : 'GET', redirect: 'manual', headers: { cookie: cookie() }, ...(body ? { body } : {}) });
    remember(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      await response.body?.cancel();
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form and no redirect at ${url} (${response.status}): ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? 'login';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login: 'operator', password: 'any' } : { prompt });
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
  }
  throw new Error('the authorization did not finish in 20 steps');
}
