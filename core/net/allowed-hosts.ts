import { localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { FastifyInstance } from 'fastify';
import type { HubSettings } from '../config/settings.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers whatever `Host` a request names: the probes, which say only up or
     * not and which Kubernetes calls with the pod's address as `Host`.
     */
    anyHost?: boolean;
    /** The route checks `Host` itself, to answer in its own shape (the MCP endpoints). */
    ownHostCheck?: boolean;
  }
}

/**
 * The names a request may give as `Host` (and as `Origin`), against DNS rebinding: a page
 * of another site that resolves its own name to this machine reaches the hub with its own
 * name as `Host`. Allowed are loopback's names, the base URL's host and HOST. Read per
 * request: without BASE_URL the base URL is known only once the hub listens.
 */
export class AllowedHosts {
  #cached: { baseUrl: string; hosts: string[]; origins: string[] } | undefined;

  constructor(private readonly settings: Pick<HubSettings, 'baseUrl' | 'host'>) {}

  /** Whether a request's `Host` header names this hub. */
  host(header: string | undefined): boolean {
    return validateHostHeader(header, this.#current().hosts).ok;
  }

  /** Whether a request's `Origin` header, when it has one, is this hub's or loopback's. */
  origin(header: string | undefined): boolean {
    return validateOriginHeader(header, this.#current().origins).ok;
  }

  #current(): { hosts: string[]; origins: string[] } {
    const { baseUrl, host } = this.settings;
    if (this.#cached?.baseUrl !== baseUrl) {
      const baseHost = bracketed(new URL(baseUrl).hostname);
      this.#cached = { baseUrl, hosts: [...localhostAllowedHostnames(), baseHost, bracketed(host)], origins: [...localhostAllowedOrigins(), baseHost] };
    }
    return this.#cached;
  }
}

/**
 * Every route of the hub checks `Host`, as the MCP endpoints always did: the status page,
 * `/health` (whose reasons quote a child's stderr), `/metrics`, the login form (whose
 * failed checks would otherwise let a page of another site lock the operator out) and
 * every plugin's. Exempt are the probes (`anyHost`) and routes that check it themselves.
 */
export function checkHostOnEveryRoute(app: FastifyInstance, allowed: AllowedHosts): void {
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.anyHost === true || config.ownHostCheck === true || allowed.host(request.headers.host)) return undefined;
    return reply.code(403).header('cache-control', 'no-store').send({
      error: 'forbidden_host',
      error_description: 'the Host header names neither this hub (its BASE_URL or HOST) nor loopback; if clients reach the hub by this name, set BASE_URL to the URL they use',
    });
  });
}

function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
