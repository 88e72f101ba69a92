import type { PluginHub } from '../../core/plugin/index.js';

/** The URLs the authorization server publishes, all under the hub's public base URL. */
export class Endpoints {
  readonly issuer: string;
  readonly authorization: string;
  readonly token: string;
  readonly registration: string;
  readonly revocation: string;
  readonly jwks: string;

  constructor(private readonly hub: PluginHub) {
    this.issuer = hub.settings.baseUrl;
    this.authorization = `${this.issuer}/authorize`;
    this.token = `${this.issuer}/token`;
    this.registration = `${this.issuer}/register`;
    this.revocation = `${this.issuer}/revoke`;
    this.jwks = `${this.issuer}/jwks`;
  }

  /** `/hub` is the resource a client gets when it names none. */
  get defaultResource(): string {
    return `${this.issuer}/hub`;
  }

  /**
   * The resource a client asked for, normalised, when it is one of the hub's MCP
   * endpoints (`/hub` or `/<name>/mcp` of a configured server); otherwise undefined.
   */
  resource(requested: string): string | undefined {
    const normalised = requested.replace(/#.*$/, '').replace(/\/+$/, '');
    if (!normalised.startsWith(`${this.issuer}/`)) return undefined;
    const path = normalised.slice(this.issuer.length);
    if (path === '/hub') return normalised;
    const match = /^\/([^/]+)\/mcp$/.exec(path);
    return match?.[1] && this.hub.servers.get(match[1]) ? normalised : undefined;
  }

  /** RFC 9728 path-scoped metadata URL of a resource on this hub. */
  resourceMetadata(resource: string): string {
    const url = new URL(resource);
    return `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/+$/, '')}`;
  }
}
