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
/** The accepted `Host` values remembered (the allowed names with any port): only accepted ones, so a client cannot fill it with refused ones. */
const ACCEPTED_HOSTS_KEPT = 32;

export class AllowedHosts {
  #cached: { baseUrl: string; hosts: string[]; origins: string[]; accepted: Set<string> } | undefined;

  constructor(private readonly settings: Pick<HubSettings, 'baseUrl' | 'host'>) {}

  /** Whether a request's `Host` header names this hub. */
  host(header: string | undefined): boolean {
    const current = this.#current();
    // Every request asks, nearly always with one of a few values; the SDK's check parses a URL each time.
    if (header !== undefined && current.accepted.has(header)) return true;
    const ok = validateHostHeader(header, current.hosts).ok;
    if (ok && header !== undefined && current.accepted.size < ACCEPTED_HOSTS_KEPT) current.accepted.add(header);
    return ok;
  }

  /** Whether a request's `Origin` header, when it has one, is this hub's or loopback's. */
  origin(header: string | undefined): boolean {
    return validateOriginHeader(header, this.#current().origins).ok;
  }

  #current(): { hosts: string[]; origins: string[]; accepted: Set<string> } {
    const { baseUrl, host } = this.settings;
    if (this.#cached?.baseUrl !== baseUrl) {
      const baseHost = bracketed(new URL(baseUrl).hostname);
      this.#cached = { baseUrl, hosts: [...localhostAllowedHostnames(), baseHost, bracketed(host)], origins: [...localhostAllowedOrigins(), baseHost], accepted: new Set() };
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
  // A callback hook: every request passes it, and an async one costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    const config = request.routeOptions.config;
    if (config.anyHost === true || config.ownHostCheck === true || allowed.host(request.headers.host)) {
      done();
      return;
    }
    reply.code(403).header('cache-control', 'no-store').send({
      error: 'forbidden_host',
      error_description: 'the Host header names neither this hub (its BASE_URL or HOST) nor loopback; if clients reach the hub by this name, set BASE_URL to the URL they use',
    });
  });
}

function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
