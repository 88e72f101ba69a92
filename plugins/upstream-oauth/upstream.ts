import { setTimeout as sleep } from 'node:timers/promises';
import {
  auth,
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  type AuthResult,
  type FetchLike,
  type OAuthClientMetadata,
  type AuthProvider,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import { clientAuthentication } from './client-auth.js';
import { UPSTREAM_OAUTH_ERROR_CODES } from './errors.js';
import type { UpstreamKey } from './key.js';
import type { ClientAuthMethod, UpstreamOAuthEntry } from './options.js';
import { UpstreamState, type Collections, type UpstreamClient } from './records.js';
import { hashSecret, newSecret } from '../../core/plugin/auth.js';
import { LoginRequiredError, type RemoteTransportAuth } from '../../core/plugin/child-type.js';
import { errorMessage, HubError, type PluginHub } from '../../core/plugin/index.js';

const LOGIN_SECONDS = 10 * 60;
/** Longer than any refresh takes; a process that dies holding it only delays the others this long. */
const LEASE_MS = 30_000;

export interface UpstreamDependencies {
  hub: PluginHub;
  /** The hub's environment with the client secrets' `_FILE` variables read. */
  env: NodeJS.ProcessEnv;
  c: Collections;
  key: UpstreamKey;
  /** The SSRF-guarded fetch for the authorization side. */
  fetch: FetchLike;
  log: FastifyBaseLogger;
}

/** One login under way in this process: what the SDK hands back before the redirect. */
interface LoginCapture {
  state: string;
  url?: URL;
  verifier?: string;
}

/**
 * The hub as OAuth client toward one upstream. Its credentials (client identity,
 * tokens, discovery) live in the store under the server's name, so they belong to the
 * deployment and survive restarts. Everything that spends or replaces a credential runs
 * through one queue per upstream, so parallel 401s cause one refresh: the ones that
 * queued behind it see the token they were refused with is no longer current and retry.
 */
export class Upstream {
  readonly state: UpstreamState;
  #queue: Promise<unknown> = Promise.resolve();
  /** The bearer token each upstream answer was a reply to, to tell stale 401s from fresh ones. */
  readonly #sent = new WeakMap<Response, string | undefined>();

  constructor(
    readonly name: string,
    readonly serverUrl: URL,
    readonly settings: UpstreamOAuthEntry,
    private readonly deps: UpstreamDependencies,
  ) {
    this.state = new UpstreamState(deps.c.upstreams, name);
  }

  get grant(): 'authorization_code' | 'client_credentials' {
    return this.settings.grant ?? 'authorization_code';
  }

  get clientAuth(): ClientAuthMethod {
    if (this.settings.clientAuth) return this.settings.clientAuth;
    if (this.settings.mode === 'dcr') return 'client_secret_post';
    if (this.settings.mode === 'static' && this.#staticSecret() !== undefined) return 'client_secret_post';
    return 'none';
  }

  get callbackUrl(): string {
    return `${this.deps.hub.settings.baseUrl}/upstreams/callback`;
  }

  /** The Client ID Metadata Document's URL, which is the client_id in mode cimd. */
  get metadataDocumentUrl(): string {
    return `${this.deps.hub.settings.baseUrl}/upstreams/${encodeURIComponent(this.name)}/client.json`;
  }

  /** What the hub says about itself to this upstream (registration, metadata document). */
  async clientMetadata(): Promise<OAuthClientMetadata> {
    const interactive = this.grant === 'authorization_code';
    return {
      client_name: `MCP hub (${this.name})`,
      redirect_uris: interactive ? [this.callbackUrl] : [],
      grant_types: interactive ? ['authorization_code', 'refresh_token'] : ['client_credentials'],
      response_types: interactive ? ['code'] : [],
      token_endpoint_auth_method: this.clientAuth,
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
      ...(this.clientAuth === 'private_key_jwt' ? { jwks: await this.deps.key.jwks() } : {}),
    };
  }

  /** The client identity to present, by mode. */
  async client(): Promise<UpstreamClient | undefined> {
    switch (this.settings.mode) {
      case 'static': {
        const secret = this.#staticSecret();
        return this.settings.clientId === undefined ? undefined : { client_id: this.settings.clientId, ...(secret === undefined ? {} : { client_secret: secret }) };
      }
      case 'cimd':
        return { client_id: this.metadataDocumentUrl };
      case 'dcr':
        return this.state.client();
    }
  }

  /** Whether the store holds tokens for this upstream. */
  async hasTokens(): Promise<boolean> {
    return (await this.state.tokens()) !== undefined;
  }

  /** What the remote child's transport uses: stored tokens, and refresh or a grant on a 401. */
  transportAuth(): RemoteTransportAuth {
    return {
      authProvider: {
        token: async () => (await this.state.tokens())?.access_token,
        onUnauthorized: (context) => this.#onUnauthorized(context),
      },
      wrapFetch: (next) => async (url, init) => {
        const response = await next(url, init);
        this.#sent.set(response, bearerOf(init?.headers));
        return response;
      },
    };
  }

  /**
   * Starts an operator login: discovers the authorization server (the upstream's 401
   * first, then the well-known forms), registers when in mode dcr, and returns the
   * authorization URL (PKCE S256, `state`, RFC 8707 `resource` when the upstream
   * publishes RFC 9728). The verifier waits in the store for the callback.
   */
  async startLogin(): Promise<URL> {
    if (this.grant !== 'authorization_code') throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.NO_LOGIN_NEEDED, `server "${this.name}" uses client_credentials and needs no login`);
    const login: LoginCapture = { state: newSecret('ust') };
    const resourceMetadataUrl = await this.#probe();
    await this.#serialized(async () => {
      await this.state.set('discovery', undefined);
      await this.#authorize({ resourceMetadataUrl, login, forceReauthorization: true });
    });
    if (!login.url || !login.verifier) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.LOGIN_FAILED, `the upstream of "${this.name}" did not start an authorization`);
    await this.deps.c.pending.insertOne({
      _id: hashSecret(login.state),
      server: this.name,
      verifier: login.verifier,
      expiresAt: new Date(Date.now() + LOGIN_SECONDS * 1000),
    });
    return login.url;
  }

  /** Completes a login from the callback's query (`code`, `iss`), then starts the server. */
  async finishLogin(query: URLSearchParams, verifier: string): Promise<void> {
    const code = query.get('code');
    if (!code) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.LOGIN_FAILED, 'the authorization server sent no code');
    const iss = query.get('iss') ?? undefined;
    const login: LoginCapture = { state: '', verifier };
    await this.#serialized(async () => {
      const result = await this.#authorize({ authorizationCode: code, ...(iss === undefined ? {} : { iss }), login });
      if (result !== 'AUTHORIZED') throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.LOGIN_FAILED, 'the code exchange did not authorize');
    });
    this.deps.log.info({ server: this.name }, 'upstream login completed');
    this.#restartChild();
  }

  /**
   * Logs out: revokes the tokens (RFC 7009, best effort), deletes a dynamic
   * registration (RFC 7592, best effort), forgets everything and shows the server as
   * `unauthorized`.
   */
  async logout(): Promise<void> {
    await this.#serialized(async () => {
      const [tokens, client, discovery] = await Promise.all([this.state.tokens(), this.client(), this.state.discovery()]);
      const metadata = discovery?.authorizationServerMetadata;
      // Both RFC 8414 and OpenID metadata name it so; the SDK's union type knows only one side.
      const revocation = (metadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
      if (revocation && client) {
        for (const [token, hint] of [
          [tokens?.refresh_token, 'refresh_token'],
          [tokens?.access_token, 'access_token'],
        ] as const) {
          if (!token) continue;
          await this.#bestEffort('revoking a token', async () => {
            const params = new URLSearchParams({ token, token_type_hint: hint });
            const headers = new Headers({ accept: 'application/json' });
            await this.#addClientAuthentication(headers, params, revocation, metadata);
            const response = await this.deps.fetch(revocation, { method: 'POST', headers, body: params });
            if (!response.ok) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.ENDPOINT_REFUSED, `the revocation endpoint answered ${response.status}`);
          });
        }
      }
      const registration = this.settings.mode === 'dcr' ? await this.state.client() : undefined;
      if (registration?.registration_client_uri && registration.registration_access_token) {
        const uri = registration.registration_client_uri;
        const token = registration.registration_access_token;
        await this.#bestEffort('deleting the registration', async () => {
          const response = await this.deps.fetch(uri, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
          if (response.status !== 204 && !response.ok) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.ENDPOINT_REFUSED, `the registration endpoint answered ${response.status}`);
        });
      }
      await this.state.clear();
    });
    this.deps.log.info({ server: this.name }, 'upstream logged out');
    await this.deps.hub.servers.get(this.name)?.requireLogin('logged out');
  }

  async #onUnauthorized(context: Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0]): Promise<void> {
    const sent = this.#sent.get(context.response);
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(context.response);
    try {
      await this.#serialized(async () => {
        const tokens = await this.state.tokens();
        // Someone refreshed (or logged in) while this request was on its way: just retry.
        if (tokens && tokens.access_token !== sent) return;
        if (this.grant === 'authorization_code' && !tokens?.refresh_token) {
          throw new LoginRequiredError('the upstream requires an operator login');
        }
        const result = await this.#authorize({ ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) });
        if (result !== 'AUTHORIZED') throw new LoginRequiredError('the upstream requires an operator login');
      });
    } catch (error) {
      if (error instanceof LoginRequiredError) {
        const child = this.deps.hub.servers.get(this.name);
        if (child?.status === 'up') void child.requireLogin('the upstream refused the credentials and they could not be renewed');
      }
      throw error;
    }
  }

  /**
   * Runs the SDK's `auth` (discovery, token exchange, refresh or client_credentials),
   * after discovering and, in mode dcr, registering here: the SDK's registration drops
   * the RFC 7592 fields that logout needs.
   */
  async #authorize(options: { resourceMetadataUrl?: URL; scope?: string; authorizationCode?: string; iss?: string; login?: LoginCapture; forceReauthorization?: boolean }): Promise<AuthResult> {
    if (!options.authorizationCode) await this.#discover(options.resourceMetadataUrl);
    if (this.settings.mode === 'dcr' && !(await this.state.client())) await this.#register();
    return auth(this.#provider(options.login), {
      serverUrl: this.serverUrl,
      fetchFn: this.deps.fetch,
      ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl } : {}),
      ...((options.scope ?? this.settings.scope) ? { scope: options.scope ?? this.settings.scope } : {}),
      ...(options.authorizationCode === undefined ? {} : { authorizationCode: options.authorizationCode }),
      ...(options.iss === undefined ? {} : { iss: options.iss }),
      ...(options.forceReauthorization ? { forceReauthorization: true } : {}),
    });
  }

  async #discover(resourceMetadataUrl: URL | undefined): Promise<void> {
    if (await this.state.discovery()) return;
    const info = await discoverOAuthServerInfo(this.serverUrl, { fetchFn: this.deps.fetch, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) });
    await this.state.set('discovery', { ...info, ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}) });
  }

  /** RFC 7591 registration, keeping the RFC 7592 handle for logout. */
  async #register(): Promise<void> {
    const discovery = await this.state.discovery();
    const endpoint = discovery?.authorizationServerMetadata?.registration_endpoint;
    if (!endpoint) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.REGISTRATION_FAILED, `the authorization server of "${this.name}" offers no dynamic registration (oauth.mode dcr)`);
    const response = await this.deps.fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(await this.clientMetadata()),
    });
    const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (response.status !== 201 && response.status !== 200) {
      throw new HubError(
        UPSTREAM_OAUTH_ERROR_CODES.REGISTRATION_FAILED,
        `dynamic registration at the upstream of "${this.name}" failed (${response.status}${typeof body?.error === 'string' ? `: ${body.error}` : ''})`,
      );
    }
    if (typeof body?.client_id !== 'string') throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.REGISTRATION_FAILED, `dynamic registration at the upstream of "${this.name}" returned no client_id`);
    const text = (key: string): string | undefined => (typeof body[key] === 'string' ? body[key] : undefined);
    const client: UpstreamClient = { client_id: body.client_id };
    for (const key of ['client_secret', 'registration_access_token', 'registration_client_uri'] as const) {
      const value = text(key);
      if (value !== undefined) client[key] = value;
    }
    await this.state.set('client', client);
    this.deps.log.info({ server: this.name }, 'registered at the upstream');
  }

  /** The SDK's view of this upstream; `login` collects the redirect of an operator login. */
  #provider(login: LoginCapture | undefined): OAuthClientProvider {
    const state = this.state;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the SDK reads these two as properties: getters, whose `this` is the provider
    const upstream = this;
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return upstream.grant === 'authorization_code' ? upstream.callbackUrl : undefined;
      },
      get clientMetadata(): OAuthClientMetadata {
        // Only grant_types and scope are read from here once the client exists.
        return {
          redirect_uris: upstream.grant === 'authorization_code' ? [upstream.callbackUrl] : [],
          grant_types: upstream.grant === 'authorization_code' ? ['authorization_code', 'refresh_token'] : ['client_credentials'],
        };
      },
      state: () => login?.state ?? newSecret('ust'),
      clientInformation: () => this.client(),
      saveClientInformation: async (information) => {
        // The SDK stamps the issuer; only a dynamic registration is ours to keep.
        if (this.settings.mode !== 'dcr') return;
        const stored = await state.client();
        if (stored && information.client_id === stored.client_id && information.issuer) await state.set('client', { ...stored, issuer: information.issuer });
      },
      tokens: () => state.tokens(),
      saveTokens: (tokens) => state.set('tokens', tokens),
      redirectToAuthorization: (url) => {
        if (login) login.url = url;
      },
      saveCodeVerifier: (verifier) => {
        if (login) login.verifier = verifier;
      },
      codeVerifier: () => {
        if (!login?.verifier) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.LOGIN_FAILED, 'no PKCE verifier for this login');
        return login.verifier;
      },
      addClientAuthentication: (headers, params, url, metadata) => this.#addClientAuthentication(headers, params, url, metadata),
      invalidateCredentials: async (scope) => {
        if (scope === 'all' || scope === 'tokens') await state.set('tokens', undefined);
        if (scope === 'all' || scope === 'discovery') await state.set('discovery', undefined);
      },
      discoveryState: () => state.discovery(),
      saveDiscoveryState: (discovery) => state.set('discovery', discovery),
    };
    if (this.grant === 'client_credentials') {
      provider.prepareTokenRequest = (scope) => new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
    }
    return provider;
  }

  #addClientAuthentication(...args: Parameters<ReturnType<typeof clientAuthentication>>): Promise<void> | void {
    return clientAuthentication(this.clientAuth, () => this.client(), this.deps.key)(...args);
  }

  /** An unauthenticated request to the upstream, for the resource metadata URL its 401 names. */
  async #probe(): Promise<URL | undefined> {
    try {
      const response = await fetch(this.serverUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
      return response.status === 401 ? extractWWWAuthenticateParams(response).resourceMetadataUrl : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Runs `work` alone: after the earlier work of this process, and holding the store
   * lease against other processes sharing the store.
   */
  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const leased = () => this.#leased(work);
    const run = this.#queue.then(leased, leased);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #leased<T>(work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + LEASE_MS;
    while (!(await this.state.tryLease(LEASE_MS))) {
      if (Date.now() > deadline) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.BUSY, `another hub process kept the credentials of "${this.name}" busy for ${LEASE_MS / 1000} s`);
      await sleep(50);
    }
    try {
      return await work();
    } finally {
      await this.state.releaseLease();
    }
  }

  async #bestEffort(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.deps.log.warn({ server: this.name, err: (error as Error).message }, `upstream logout: ${what} failed`);
    }
  }

  #staticSecret(): string | undefined {
    const name = this.settings.clientSecretEnv;
    return name === undefined ? undefined : this.deps.env[name] || undefined;
  }

  #restartChild(): void {
    const child = this.deps.hub.servers.get(this.name);
    if (!child) return;
    child.ensureUp().catch((error: unknown) => this.deps.log.warn({ server: this.name, err: errorMessage(error) }, 'server did not start after the login'));
  }
}

function bearerOf(headers: ConstructorParameters<typeof Headers>[0]): string | undefined {
  const value = new Headers(headers).get('authorization');
  return value?.toLowerCase().startsWith('bearer ') ? value.slice(7) : undefined;
}
