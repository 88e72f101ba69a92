import { createHash, timingSafeEqual } from 'node:crypto';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import { Type } from 'typebox';
import { listPage, passwordPage } from './pages.js';
import type { Collections } from './records.js';
import type { Upstream } from './upstream.js';
import { hashSecret, newSecret } from '../../core/plugin/auth.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml, type OperatorLogin, pageWhenRefused, sendPage, tooManyAttemptsPage } from '../../core/plugin/pages.js';

const SESSION_COOKIE = 'hub_upstreams_session';
const CSRF_COOKIE = 'hub_upstreams_csrf';
const PASSWORD_FORM_SECONDS = 15 * 60;

// The hub's own secrets (CSRF tokens, states) are about 50 characters, never near this bound.
const Secret = Type.String({ maxLength: 512 });
const PasswordForm = Type.Object({ csrf: Secret, password: Type.String({ maxLength: 1024 }) });
// The pressed button's own field (`action`) comes along and is ignored.
const ActionForm = Type.Object({ csrf: Secret });
const NameParams = Type.Object({ name: Type.String() });
const ActionParams = Type.Object({ name: Type.String(), action: Type.Union([Type.Literal('login'), Type.Literal('logout')]) });
/**
 * What the upstream's authorization server sends back (RFC 6749 section 4.1.2, RFC 9207):
 * each parameter at most once (a second `iss` or `code` is refused, not chosen from), the
 * rest (error_description, session_state, ...) ignored.
 */
const CallbackQuery = Type.Object({
  state: Secret,
  code: Type.Optional(Type.String({ maxLength: 8192 })),
  iss: Type.Optional(Type.String({ maxLength: 2000 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});

interface Dependencies {
  hub: PluginHub;
  c: Collections;
  upstreams: Map<string, Upstream>;
  login: OperatorLogin;
  sessionSeconds: number;
}

/**
 * The operator's page for upstream logins, behind the shared hub password: it lists the
 * upstreams with their status and offers login and logout. Forms only (works without
 * JavaScript), every POST carries a CSRF token tied to the session, and the page may not
 * be framed (sendPage's headers). Also the OAuth callback and the per-upstream Client ID
 * Metadata Documents.
 */
export function registerRoutes(plugin: FastifyInstance, deps: Dependencies): void {
  const { c, upstreams } = deps;
  const secure = deps.hub.settings.baseUrl.startsWith('https:');
  // TypeBox's compiler validates the routes' schemas in this plugin's context whatever the
  // embedding app's Ajv options: nothing coerced or removed, unknown fields left alone.
  // Every refusal is answered with a page (pageWhenRefused): people use these forms.
  plugin.setValidatorCompiler(TypeBoxValidatorCompiler);
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/upstreams', async (request, reply) => {
    const session = await currentSession(request);
    if (!session) return showPasswordPage(reply);
    return listPage(reply, await rows(), csrfFor(session));
  });

  app.post('/upstreams/session', { schema: { body: PasswordForm }, errorHandler: pageWhenRefused(expired) }, async (request, reply) => {
    const form = request.body;
    const cookie = parseCookie(request.headers.cookie ?? '')[CSRF_COOKIE];
    if (!cookie || !sameText(cookie, form.csrf)) return expired(reply);
    const attempt = await deps.login.attempt(request.ip, form.password);
    if (attempt.refused) return tooManyAttemptsPage(reply, attempt.retryAfterSeconds);
    if (!attempt.matched) return passwordPage(reply, form.csrf, 'Wrong password.');
    const session = newSecret('ups');
    await c.sessions.insertOne({ _id: hashSecret(session), expiresAt: new Date(Date.now() + deps.sessionSeconds * 1000) });
    reply.header(
      'set-cookie',
      stringifySetCookie({ name: SESSION_COOKIE, value: session, httpOnly: true, sameSite: 'lax', secure, path: '/upstreams', maxAge: deps.sessionSeconds }),
    );
    return reply.redirect('/upstreams', 303);
  });

  // The session is checked as the request arrives, before its form is read or validated.
  const sessions = new WeakMap<FastifyRequest, string>();
  const requireSession = async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await currentSession(request);
    if (!session) return showPasswordPage(reply);
    sessions.set(request, session);
  };
  const actionRefused = pageWhenRefused((reply, error) => (error.validationContext === 'params' ? notFound(reply) : expired(reply)));

  app.post('/upstreams/:name/:action', { onRequest: requireSession, schema: { params: ActionParams, body: ActionForm }, errorHandler: actionRefused }, async (request, reply) => {
    const params = request.params;
    const session = sessions.get(request);
    const form = request.body;
    if (!session) return showPasswordPage(reply);
    if (!sameText(form.csrf, csrfFor(session))) return expired(reply);
    const upstream = upstreams.get(params.name);
    if (!upstream) return notFound(reply);
    try {
      if (params.action === 'login') return reply.header('cache-control', 'no-store').redirect((await upstream.startLogin()).href, 303);
      await upstream.logout();
      return listPage(reply, await rows(), csrfFor(session), `Logged out of ${upstream.name}.`);
    } catch (error) {
      request.log.warn({ server: upstream.name, err: (error as Error).message }, `upstream ${params.action} failed`);
      return sendPage(reply, 502, 'Upstream error', `<p>${escapeHtml((error as Error).message)}</p><p><a href="/upstreams">Back</a></p>`);
    }
  });

  app.get('/upstreams/callback', { schema: { querystring: CallbackQuery }, errorHandler: pageWhenRefused(expired) }, async (request, reply) => {
    const query = request.query;
    const pending = await c.pending.findOne({ _id: hashSecret(query.state) });
    // One use per login: whoever deletes the pending record finishes it.
    if (!pending || (await c.pending.deleteOne({ _id: pending._id })) !== 1) return expired(reply);
    const upstream = upstreams.get(pending.server);
    if (!upstream) return expired(reply);
    if (query.error !== undefined) {
      // The error text comes from whoever sent the browser here: it is not shown.
      return sendPage(reply, 400, 'Login not completed', `<p>The authorization server of ${escapeHtml(upstream.name)} did not grant access.</p><p><a href="/upstreams">Back</a></p>`);
    }
    try {
      await upstream.finishLogin(new URLSearchParams({ code: query.code ?? '', ...(query.iss === undefined ? {} : { iss: query.iss }) }), pending.verifier);
    } catch (error) {
      request.log.warn({ server: upstream.name, err: (error as Error).message }, 'upstream login failed');
      return sendPage(reply, 502, 'Login failed', `<p>${escapeHtml((error as Error).message)}</p><p><a href="/upstreams">Back</a></p>`);
    }
    return sendPage(reply, 200, 'Logged in', `<p>The hub is now logged in to <strong>${escapeHtml(upstream.name)}</strong>.</p><p><a href="/upstreams">Back to the upstreams</a></p>`);
  });

  app.get('/upstreams/:name/client.json', { schema: { params: NameParams } }, async (request, reply) => {
    const upstream = upstreams.get(request.params.name);
    if (!upstream || upstream.settings.mode !== 'cimd') return reply.code(404).send({ error: 'not_found' });
    return reply.header('cache-control', 'public, max-age=300').send({ client_id: upstream.metadataDocumentUrl, ...(await upstream.clientMetadata()) });
  });

  async function rows() {
    return Promise.all(
      [...upstreams.values()].map(async (upstream) => ({
        name: upstream.name,
        mode: upstream.settings.mode,
        grant: upstream.grant,
        status: deps.hub.servers.get(upstream.name)?.status ?? ('unknown' as const),
        hasTokens: await upstream.hasTokens(),
      })),
    );
  }

  function showPasswordPage(reply: FastifyReply): FastifyReply {
    const csrf = newSecret('csrf');
    reply.header('set-cookie', stringifySetCookie({ name: CSRF_COOKIE, value: csrf, httpOnly: true, sameSite: 'strict', secure, path: '/upstreams', maxAge: PASSWORD_FORM_SECONDS }));
    return passwordPage(reply, csrf);
  }

  async function currentSession(request: FastifyRequest): Promise<string | undefined> {
    const session = parseCookie(request.headers.cookie ?? '')[SESSION_COOKIE];
    return session !== undefined && (await c.sessions.findOne({ _id: hashSecret(session) })) !== null ? session : undefined;
  }
}

/** The session's CSRF token: derived from the session secret, so nothing more is stored. */
function csrfFor(session: string): string {
  return createHash('sha256').update(`csrf:${session}`).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A refused request's answer is a page: a person reads it, never Fastify's JSON. Other errors go on. */

function notFound(reply: FastifyReply): FastifyReply {
  return sendPage(reply, 404, 'Not found', '<p>No such upstream or action.</p>');
}

function expired(reply: FastifyReply): FastifyReply {
  return sendPage(reply, 403, 'Request expired', '<p>This form or login is no longer valid. <a href="/upstreams">Start again</a>.</p>');
}
