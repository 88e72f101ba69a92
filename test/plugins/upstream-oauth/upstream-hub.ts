import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Hub } from '../../../core/hub.js';
import { hub, onKernel } from '../../../core/kernel.js';
import { completeAuthorization } from './upstream-world.js';
import { FAST } from '../../core/children/helpers.js';
import { freePort } from '../../helpers/net.js';

export const PASSWORD = 'correct horse';

export interface UpstreamTestHub {
  app: FastifyInstance;
  hub: Hub;
  url: string;
  port: number;
  dataPath: string;
}

export async function newDataPath(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'upstream-test-'));
}

/**
 * A hub whose BASE_URL is its real loopback address (the OAuth callback must reach it),
 * with upstream-oauth's loopback switch on and oauth-as off. Pass the same port and data
 * path again to restart it.
 */
export async function startUpstreamHub(
  t: { teardown(fn: () => unknown): void },
  options: {
    servers: Record<string, unknown>;
    port?: number;
    dataPath?: string;
    env?: Record<string, string>;
    plugin?: Record<string, unknown>;
    /** Collects the hub's log lines (info and up). */
    logs?: string[];
    /** Runs oauth-as too, so the hub's own endpoints need tokens. */
    inbound?: boolean;
    /** Serves https with this key and certificate (BASE_URL becomes https). */
    tls?: { key: string; cert: string };
  },
): Promise<UpstreamTestHub> {
  const port = options.port ?? (await freePort());
  const dataPath = options.dataPath ?? (await newDataPath());
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const logs = options.logs;
  const logger = logs ? { level: 'info', stream: { write: (line: string) => void logs.push(line) } } : false;
  const app = (options.tls ? Fastify({ logger, pluginTimeout: 0, https: options.tls }) : Fastify({ logger, pluginTimeout: 0 })) as FastifyInstance;
  let context: Hub | undefined;
  await app.register(hub, {
    config: {
      mcpServers: options.servers,
      plugins: { 'oauth-as': options.inbound === true, 'map-tools': false, 'upstream-oauth': { allowLoopbackAuthorizationServers: true, ...options.plugin } },
    },
    env: { DATA_PATH: dataPath, BASE_URL: url, PORT: String(port), HUB_PASSWORD: PASSWORD, ...options.env },
    settings: { dataPath },
    children: { ...FAST, wakeBudgetMs: 10_000 },
    [onKernel]: (created) => void (context = created),
  });
  await app.listen({ host: '127.0.0.1', port });
  t.teardown(() => app.close());
  if (!context) throw new Error('the hub plugin did not call setup');
  return { app, hub: context, url, port, dataPath };
}

/** A cookie-keeping operator at the hub's upstreams page, without a browser. */
export class Operator {
  readonly #jar = new Map<string, string>();

  constructor(private readonly base: string) {}

  /** `form` as fields, or `body` as a raw urlencoded form (to send a field twice). */
  async request(path: string, init: { method?: string; form?: Record<string, string>; body?: string } = {}): Promise<Response> {
    const body = init.body ?? (init.form ? new URLSearchParams(init.form).toString() : undefined);
    const response = await fetch(new URL(path, this.base), {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      redirect: 'manual',
      headers: {
        cookie: [...this.#jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (pair && index > 0) this.#jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    return response;
  }

  /** Logs in with the shared password on the login form /upstreams shows; returns the answer (a redirect back to /upstreams). */
  async logIn(password = PASSWORD): Promise<Response> {
    const page = await (await this.request('/upstreams')).text();
    return this.request('/login', { form: { _csrf: csrfOf(page), password, return_to: '/upstreams' } });
  }

  async page(): Promise<string> {
    return (await this.request('/upstreams')).text();
  }

  /** Presses a server's login or logout button; returns the response (a redirect for login). */
  async press(server: string, action: 'login' | 'logout'): Promise<Response> {
    return this.request(`/upstreams/${server}/${action}`, { form: { _csrf: csrfOf(await this.page()) } });
  }
}

export function csrfOf(html: string): string {
  const value = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!value) throw new Error(`no CSRF field in the page: ${html.slice(0, 200)}`);
  return value;
}

/**
 * Logs the hub in to `server` the way an operator does on the page: password, Log in,
 * the upstream's login and consent, back to the hub's callback. Returns the authorization URL used.
 */
export async function loginThroughPage(operator: Operator, hubUrl: string, server: string): Promise<URL> {
  if (!(await operator.page()).includes('<h1>Upstream logins</h1>')) await operator.logIn();
  const started = await operator.press(server, 'login');
  const location = started.headers.get('location');
  if (started.status !== 303 || !location) throw new Error(`login did not redirect (${started.status}): ${(await started.text()).slice(0, 300)}`);
  const back = await completeAuthorization(location, `${hubUrl}/upstreams/callback`);
  const landed = await operator.request(back.slice(hubUrl.length));
  if (landed.status !== 200) throw new Error(`the callback answered ${landed.status}: ${(await landed.text()).slice(0, 300)}`);
  return new URL(location);
}
