import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageOptions } from './page.js';

/**
 * What became of a password typed into a page. On `refused` (that address used up its
 * checks, or another of its passwords is being checked; or the store does not answer)
 * the service has already answered the request: 429 (503) with Retry-After.
 */
export type PasswordCheck = 'matched' | 'wrong' | 'refused';

/**
 * The operator web service (`hub.operator`): every page the hub shows a person uses it,
 * so that login, session, CSRF, the page frame and URLs exist once. One login (the hub
 * password, behind the shared throttle) opens one session for every page; the session is
 * kept in the store, so replicas share it. Every URL follows the prefix the hub is
 * served under (`app.register(hub, { prefix: '/tools' })`).
 */
export interface OperatorService {
  /**
   * Adds pages for people in a Fastify context of their own under `app`: cookies, form
   * bodies and TypeBox validation are set up there, and every request other than GET and
   * HEAD must come from the hub's own pages (`Origin`, `Sec-Fetch-Site`) and carry the CSRF
   * token of its form (`csrfField`), checked before its schema and handler; a refusal,
   * like a request its schema refuses, is answered with a page.
   */
  pages(app: FastifyInstance, routes: (pages: FastifyInstance) => void | Promise<void>): Promise<void>;
  /**
   * An `onRequest` hook for routes only the operator may use: without a session the answer
   * is the login form, which comes back to this page once logged in. Checked before the
   * body is read.
   */
  readonly requireSession: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** Whether the request carries a live operator session. */
  hasSession(request: FastifyRequest): Promise<boolean>;
  /**
   * Checks a password typed into a page's own form (the approval page asks for it with
   * every grant) through the shared throttle; when it matches, the operator session starts
   * (or starts anew) on `reply`, so the other pages need no second login.
   */
  confirmPassword(request: FastifyRequest, reply: FastifyReply, password: string): Promise<PasswordCheck>;
  /** The hidden field that carries the CSRF token, for every form that posts to the hub; one token per answer. */
  csrfField(reply: FastifyReply): string;
  /** The CSRF token itself (the one `csrfField` carries), for a page whose script sends it back in an `X-CSRF-Token` header. */
  csrfToken(reply: FastifyReply): string;
  /**
   * An `onRequest` hook for a JSON API of the operator's (routes with `config: { operatorApi: true }`,
   * whose refusals are then JSON errors with a hub error code): a request without a live
   * session, or with any `Authorization` header, is refused with 401.
   */
  readonly requireApiSession: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** `path` (from the hub's root, starting with `/`) under the prefix the hub is served at: for links, form actions and redirects. */
  url(path: string): string;
  /**
   * The page frame: one pinned stylesheet, no scripts, never framed, never cached; with a
   * session, a "Log out" button that ends it.
   */
  sendPage(reply: FastifyReply, status: number, title: string, body: string, options?: PageOptions): FastifyReply;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of an operator JSON API: its refusals (login, origin, CSRF, schema) are JSON errors with a hub error code, not pages. */
    operatorApi?: boolean;
  }
}
