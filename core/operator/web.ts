import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { HUB_ERROR_CODES } from '../errors.js';
import type { Store } from '../store/index.js';
import { foreignFormReason } from './form-origin.js';
import { ownFormParser } from './form-parser.js';
import { loginFormBody } from './login-page.js';
import type { OperatorLogin } from './login.js';
import { escapeHtml, loginRefusedPage, sendPage, type PageOptions } from './page.js';
import type { OperatorService, PasswordCheck } from './service.js';
import { OperatorSessions } from './sessions.js';

/** The cookie holding the CSRF secret (`@fastify/csrf-protection`); forms carry tokens made from it. */
const CSRF_COOKIE = 'hub_csrf';
/** The form field that carries the CSRF token (the package's default). */
const CSRF_FIELD = '_csrf';
/** A form is a few fields: a larger body is refused before it is read. */
const FORM_BODY_LIMIT = 64 * 1024;
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** Retry-After of the 503 when the store cannot tell whether a session is live. */
const SESSION_CHECK_RETRY_SECONDS = 5;

// The CSRF token is about 80 characters and a return path a page of this hub, never near these bounds.
const Token = Type.String({ maxLength: 512 });
const ReturnTo = Type.Optional(Type.String({ maxLength: 2000 }));
// Longer than any password a person types; keeps what is hashed per attempt small.
const PasswordField = Type.String({ maxLength: 1024 });
const LoginForm = Type.Object({ [CSRF_FIELD]: Token, password: PasswordField, return_to: ReturnTo });
const LogoutForm = Type.Object({ [CSRF_FIELD]: Token, return_to: ReturnTo });

export interface OperatorWebOptions {
  /** The prefix the hub is registered under ('' at the root). */
  prefix: string;
  /** BASE_URL: its origin is the hub's own, and https makes the cookies `Secure`. */
  baseUrl: string;
  sessionSeconds: number;
  store: Store;
  login: OperatorLogin;
}

/**
 * The operator web service (see `OperatorService`), built on `@fastify/cookie`,
 * `@fastify/formbody` and `@fastify/csrf-protection`, registered in each page context
 * rather than on the hub, so that no MCP request pays for cookies. The kernel adds the
 * two routes every page shares, `POST /login` and `POST /logout`, once a plugin has pages.
 *
 * CSRF is `@fastify/csrf-protection`'s token, made from a secret in an httpOnly,
 * SameSite=Strict cookie and checked on every form post, together with the browser's
 * fetch metadata (`Sec-Fetch-Site`, `Origin`): a post from another site, a sibling
 * subdomain that could have planted the cookie included, is refused before its token is
 * looked at. The token is not bound to the session: that would need a key shared by the
 * replicas, and the origin check already covers what the binding would.
 */
export class OperatorWeb implements OperatorService {
  readonly #prefix: string;
  readonly #origin: string;
  readonly #secure: boolean;
  readonly #sessions: OperatorSessions;
  readonly #login: OperatorLogin;
  /** GET pages behind `requireSession`: where a login or logout may send the browser back to (never anywhere else). */
  readonly #returnPaths = new Set<string>();
  readonly #sessionOf = new WeakMap<FastifyRequest, Promise<boolean>>();
  readonly #loggedIn = new WeakSet<FastifyRequest>();
  readonly #tokens = new WeakMap<FastifyReply, string>();
  #used = false;

  constructor(options: OperatorWebOptions) {
    this.#prefix = options.prefix.replace(/\/+$/, '');
    this.#origin = new URL(options.baseUrl).origin;
    this.#secure = options.baseUrl.startsWith('https:');
    this.#sessions = new OperatorSessions(options.store, options.sessionSeconds, { path: this.#prefix || '/', secure: this.#secure });
    this.#login = options.login;
  }

  /** Whether a plugin has added pages: the kernel then serves the login routes and makes sure a password exists. */
  get used(): boolean {
    return this.#used;
  }

  get login(): OperatorLogin {
    return this.#login;
  }

  async pages(app: FastifyInstance, routes: (pages: FastifyInstance) => void | Promise<void>): Promise<void> {
    this.#used = true;
    await app.register(async (pages) => {
      await this.#setUp(pages);
      await routes(pages);
    });
  }

  /** The routes every page shares: the login form's target and the logout button's. */
  async registerRoutes(app: FastifyInstance): Promise<void> {
    await this.pages(app, (pages) => {
      const routes = pages.withTypeProvider<TypeBoxTypeProvider>();
      routes.post('/login', { schema: { body: LoginForm } }, async (request, reply) => {
        const returnTo = this.#allowedReturn(request.body.return_to);
        const check = await this.confirmPassword(request, reply, request.body.password);
        if (check === 'refused') return reply;
        if (check === 'wrong') return this.#loginPage(reply, 401, returnTo, 'Wrong password.');
        if (returnTo !== undefined) return reply.redirect(returnTo, 303);
        return this.sendPage(reply, 200, 'Logged in', this.#pageLinks());
      });
      routes.post('/logout', { schema: { body: LogoutForm } }, async (request, reply) => {
        await this.#sessions.end(request, reply);
        this.#loggedIn.delete(request);
        this.#sessionOf.set(request, Promise.resolve(false));
        const returnTo = this.#allowedReturn(request.body.return_to);
        if (returnTo !== undefined) return reply.redirect(returnTo, 303);
        return this.sendPage(reply, 200, 'Logged out', `<p>You are logged out of the hub.</p>${this.#pageLinks()}`);
      });
    });
  }

  readonly requireSession = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    let live: boolean;
    try {
      live = await this.hasSession(request);
    } catch (error) {
      // The store's reason stays in the log: whoever asks has not shown a session yet.
      request.log.warn({ err: (error as Error).message }, 'an operator session could not be checked');
      return sendPage(
        reply.header('retry-after', String(SESSION_CHECK_RETRY_SECONDS)),
        503,
        'Cannot check the login',
        '<p role="alert">The hub cannot check logins right now: its store does not answer. Try again in a moment.</p>',
      );
    }
    if (live) return undefined;
    return this.#loginPage(reply, SAFE_METHODS.has(request.method) ? 200 : 401, this.#returnPathOf(request));
  };

  hasSession(request: FastifyRequest): Promise<boolean> {
    let known = this.#sessionOf.get(request);
    if (!known) {
      known = this.#sessions.live(request).then((live) => {
        if (live) this.#loggedIn.add(request);
        return live;
      });
      this.#sessionOf.set(request, known);
    }
    return known;
  }

  async confirmPassword(request: FastifyRequest, reply: FastifyReply, password: string): Promise<PasswordCheck> {
    const attempt = await this.#login.attempt(request.ip, password);
    if (attempt.refused !== false) {
      loginRefusedPage(reply, attempt.refused, attempt.retryAfterSeconds);
      return 'refused';
    }
    if (!attempt.matched) return 'wrong';
    await this.#sessions.start(request, reply);
    this.#loggedIn.add(request);
    this.#sessionOf.set(request, Promise.resolve(true));
    return 'matched';
  }

  csrfField(reply: FastifyReply): string {
    return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(this.csrfToken(reply))}">`;
  }

  csrfToken(reply: FastifyReply): string {
    let token = this.#tokens.get(reply);
    if (token === undefined) {
      // One token per answer: making a second would replace the cookie the first was made from.
      token = reply.generateCsrf();
      this.#tokens.set(reply, token);
    }
    return token;
  }

  readonly requireApiSession = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    // A bearer token opens the MCP endpoints, never the operator's: a leaked client token must not edit the hub.
    if (request.headers.authorization !== undefined)
      return sendApiError(reply, 401, HUB_ERROR_CODES.OPERATOR_SESSION_REQUIRED, 'The operator API takes the operator login session only, never an Authorization header.');
    let live: boolean;
    try {
      live = await this.hasSession(request);
    } catch (error) {
      request.log.warn({ err: (error as Error).message }, 'an operator session could not be checked');
      return sendApiError(
        reply.header('retry-after', String(SESSION_CHECK_RETRY_SECONDS)),
        503,
        HUB_ERROR_CODES.STORE_UNAVAILABLE,
        'The hub cannot check logins right now: its store does not answer. Try again in a moment.',
      );
    }
    if (live) return undefined;
    return sendApiError(reply, 401, HUB_ERROR_CODES.OPERATOR_SESSION_REQUIRED, 'Log in to the hub first (the session ended or was never started): reload the page.');
  };

  url(path: string): string {
    return `${this.#prefix}${path}`;
  }

  sendPage(reply: FastifyReply, status: number, title: string, body: string, options?: PageOptions): FastifyReply {
    const request = reply.request;
    if (!this.#loggedIn.has(request)) return sendPage(reply, status, title, body, options);
    const here = this.#allowedReturn(pathOf(request));
    const back = here === undefined ? '' : `<input type="hidden" name="return_to" value="${escapeHtml(here)}">`;
    const logout = `<form class="logout" method="post" action="${escapeHtml(this.url('/logout'))}">${this.csrfField(reply)}${back}<button type="submit">Log out</button></form>`;
    return sendPage(reply, status, title, `${body}\n${logout}`, options);
  }

  /** What every page context needs, before its routes are added. */
  async #setUp(pages: FastifyInstance): Promise<void> {
    // TypeBox's compiler in this context, whatever the embedding app's Ajv options.
    pages.setValidatorCompiler(TypeBoxValidatorCompiler);
    // An embedding app may have registered cookies for its own routes; the hub's context inherits them then.
    if (!pages.hasRequestDecorator('cookies')) await pages.register(cookie);
    await ownFormParser(pages);
    if (!pages.hasDecorator('csrfProtection')) {
      await pages.register(csrfProtection, {
        sessionPlugin: '@fastify/cookie',
        cookieKey: CSRF_COOKIE,
        cookieOpts: { path: this.#prefix || '/', sameSite: 'strict', httpOnly: true, secure: this.#secure },
      });
    }
    pages.addHook('onRoute', (route) => {
      route.bodyLimit ??= FORM_BODY_LIMIT;
      const onRequest = [route.onRequest ?? []].flat();
      if ([route.method].flat().includes('GET') && onRequest.includes(this.requireSession) && !route.url.includes(':')) this.#returnPaths.add(route.url);
    });
    pages.addHook('onRequest', async (request, reply) => {
      if (SAFE_METHODS.has(request.method)) return undefined;
      const reason = foreignFormReason(request.headers, [this.#origin, `${request.protocol}://${request.host}`]);
      if (reason === undefined) return undefined;
      request.log.warn({ reason }, 'operator form refused');
      if (isOperatorApi(request)) return sendApiError(reply, 403, HUB_ERROR_CODES.OPERATOR_FOREIGN_REQUEST, `This request was not sent from the hub's own pages: ${reason}.`);
      return this.sendPage(reply, 403, 'Form refused', `<p role="alert">This form was not sent from the hub's own pages: ${escapeHtml(reason)}.</p>`);
    });
    pages.addHook('preValidation', (request, reply, done) => {
      if (SAFE_METHODS.has(request.method)) return done();
      // A form without the field at all is a script that misnamed it, not an old page: say which field.
      const body = request.body;
      const header = ['csrf-token', 'xsrf-token', 'x-csrf-token', 'x-xsrf-token'].some((name) => request.headers[name] !== undefined);
      // (An API's JSON body never carries the field: its refusal is the JSON 403 below.)
      if (!header && !isOperatorApi(request) && typeof body === 'object' && body !== null && !(CSRF_FIELD in body)) {
        const sent =
          Object.keys(body)
            .slice(0, 20)
            .map((name) => `"${escapeHtml(name)}"`)
            .join(', ') || 'none';
        return void this.sendPage(
          reply,
          400,
          'Not understood',
          `<p role="alert">The form has no "${CSRF_FIELD}" field, which every form of the hub carries (hidden, from the page that shows the form); the fields sent: ${sent}.</p>`,
        );
      }
      pages.csrfProtection(request, reply, done);
    });
    pages.setErrorHandler((error: FastifyError, request, reply) => {
      if (isOperatorApi(request)) {
        if (error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN') {
          return sendApiError(reply, 403, HUB_ERROR_CODES.OPERATOR_CSRF_INVALID, 'The page that sent this is no longer valid (the CSRF token is missing or stale): reload it and retry.');
        }
        if (error.validation || error.statusCode === 400 || error.statusCode === 413 || error.statusCode === 415) {
          return sendApiError(
            reply,
            error.statusCode === 413 || error.statusCode === 415 ? error.statusCode : 400,
            HUB_ERROR_CODES.OPERATOR_REQUEST_INVALID,
            `The hub did not understand this request: ${error.message}.`,
          );
        }
        request.log.error({ err: error }, 'operator API request failed');
        return sendApiError(reply, 500, HUB_ERROR_CODES.INTERNAL, 'The hub failed on this request; its log says why.');
      }
      if (error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN') {
        return this.sendPage(reply, 403, 'Form expired', '<p role="alert">This form is no longer valid (it is from an earlier visit, or from another browser). Open the page again and retry.</p>');
      }
      if (error.validation) return this.sendPage(reply, 400, 'Not understood', `<p role="alert">The hub did not understand this request: ${escapeHtml(error.message)}.</p>`);
      throw error;
    });
  }

  #loginPage(reply: FastifyReply, status: number, returnTo: string | undefined, error?: string): FastifyReply {
    const body = loginFormBody({ action: this.url('/login'), csrfField: this.csrfField(reply), returnTo, ...(error !== undefined && { error }) });
    return this.sendPage(reply, status, 'Log in to the hub', body);
  }

  /** The page a login started from `request` goes back to: the page itself, or for a form the page it belongs to. */
  #returnPathOf(request: FastifyRequest): string | undefined {
    const path = pathOf(request);
    if (SAFE_METHODS.has(request.method)) return this.#allowedReturn(path);
    return [...this.#returnPaths].filter((page) => path.startsWith(`${page}/`)).sort((a, b) => b.length - a.length)[0];
  }

  #allowedReturn(path: string | undefined): string | undefined {
    return path !== undefined && this.#returnPaths.has(path) ? path : undefined;
  }

  #pageLinks(): string {
    const links = [...this.#returnPaths].sort().map((path) => `<li><a href="${escapeHtml(path)}">${escapeHtml(path)}</a></li>`);
    return links.length === 0 ? '' : `<ul>${links.join('')}</ul>`;
  }
}

/** Routes of the operator's JSON API say so in their config (`{ operatorApi: true }`): their refusals are JSON, not pages. */
function isOperatorApi(request: FastifyRequest): boolean {
  return request.routeOptions.config.operatorApi === true;
}

/** An error of the operator API: JSON with the hub's error code and a message a person can act on. */
export function sendApiError(reply: FastifyReply, status: number, code: string, message: string, details?: Record<string, unknown>): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8')
    .send({ error: { code, message, ...details } });
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
