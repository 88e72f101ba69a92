import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import { Type } from 'typebox';
import type { ClientAuthenticator, KnownClient } from './client-auth.js';
import type { Endpoints } from './endpoints.js';
import { OAuthError } from './errors.js';
import type { OAuthAsOptions } from './options.js';
import { consentPage, loginPage, type FormContext } from './pages.js';
import { makeRoomForPending } from './pending.js';
import type { Collections, PendingRecord } from './records.js';
import { redirectAllowed, redirectUriProblem } from './redirects.js';
import { KeywordParameter, SecretParameter, UrlParameter, type Routes } from './validation.js';
import { addressKey, hashSecret, newSecret, secretMatches } from '../../core/plugin/auth.js';
import { escapeHtml, type OperatorLogin, pageWhenRefused, sendPage, tooManyAttemptsPage } from '../../core/plugin/pages.js';

const CSRF_COOKIE = 'hub_csrf';
const SESSION_COOKIE = 'hub_session';
const PENDING_SECONDS = 15 * 60;

/**
 * The parameters of an authorization request (RFC 6749 section 4.1.1, RFC 7636, RFC 8707),
 * bounded: they are kept with the pending request. The schema says only what each must be
 * to be read at all; which values the hub accepts (response_type, PKCE, resource) the
 * handler checks, because once the client and its redirect URI are known such an error is
 * sent to the client by redirect, as section 4.1.2.1 asks. A request the schema refuses is
 * shown to the person instead (the redirect target is not trusted yet).
 */
const AuthorizeQuery = Type.Object({
  client_id: Type.Optional(UrlParameter),
  redirect_uri: Type.Optional(UrlParameter),
  response_type: Type.Optional(KeywordParameter),
  code_challenge: Type.Optional(KeywordParameter),
  code_challenge_method: Type.Optional(KeywordParameter),
  resource: Type.Optional(UrlParameter),
  scope: Type.Optional(Type.String({ maxLength: 1000 })),
  state: Type.Optional(Type.String({ maxLength: 2000 })),
});
const AuthorizeForm = Type.Object({
  request_id: SecretParameter,
  csrf: SecretParameter,
  step: Type.Union([Type.Literal('login'), Type.Literal('approve'), Type.Literal('deny')]),
  // Longer than any password a person types; keeps what is hashed per attempt small.
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});

interface Dependencies {
  c: Collections;
  clients: ClientAuthenticator;
  endpoints: Endpoints;
  login: OperatorLogin;
  options: OAuthAsOptions;
}

/**
 * The authorization endpoint. GET checks the request (errors about the client or the
 * redirect are shown, never redirected), keeps it server-side and shows the login page
 * or, for a logged-in browser, the consent page. The forms POST back with the pending
 * request's id and a CSRF token that must match a cookie only this browser holds.
 */
export function registerAuthorize(app: Routes, deps: Dependencies): void {
  const { c, endpoints, options } = deps;
  const secure = endpoints.issuer.startsWith('https:');

  app.get('/authorize', { schema: { querystring: AuthorizeQuery }, errorHandler: pageWhenRefused((reply, error) => sendPage(reply, 400, 'Cannot authorize', `<p>The application sent a malformed request: ${escapeHtml(error.message)}.</p>`)) }, async (request, reply) => {
    const query = request.query;
    let client: KnownClient;
    try {
      client = await deps.clients.find(query.client_id ?? '');
    } catch (error) {
      if (error instanceof OAuthError) return sendPage(reply, 400, 'Cannot authorize', `<p>${escapeHtml(error.description)}</p>`);
      throw error;
    }
    const uris = client.metadata.redirect_uris;
    const redirectUri = query.redirect_uri ?? (uris.length === 1 ? uris[0] : undefined);
    if (!redirectUri || !redirectAllowed(redirectUri, uris)) {
      const unsafe = redirectUri === undefined ? undefined : redirectUriProblem(redirectUri);
      return sendPage(reply, 400, 'Cannot authorize', `<p>${unsafe ? `The redirect URI is not allowed: ${escapeHtml(unsafe)}` : 'The redirect URI is not registered for this client.'}</p>`);
    }
    const fail = (error: string, description: string) => redirectWith(reply, redirectUri, { error, error_description: description, state: query.state, iss: endpoints.issuer });
    if (query.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
    if (!query.code_challenge) return fail('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256');
    if (query.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    const resource = endpoints.resource(query.resource ?? endpoints.defaultResource);
    if (!resource) return fail('invalid_target', 'resource is not an MCP endpoint of this hub');

    const address = addressKey(request.ip);
    await makeRoomForPending(c, address, options.maxPendingAuthorizations);
    const csrf = newSecret('csrf');
    const pending: PendingRecord = {
      _id: newSecret('req'),
      address,
      csrfHash: hashSecret(csrf),
      clientId: client.clientId,
      clientName: client.name,
      redirectUri,
      ...(query.state !== undefined ? { state: query.state } : {}),
      codeChallenge: query.code_challenge,
      resource,
      scope: query.scope ?? '',
      expiresAt: new Date(Date.now() + PENDING_SECONDS * 1000),
    };
    await c.pending.insertOne(pending);
    reply.header('set-cookie', stringifySetCookie({ name: CSRF_COOKIE, value: csrf, httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: PENDING_SECONDS }));
    const context = formContext(pending, csrf);
    return (await hasSession(request)) ? consentPage(reply, context) : loginPage(reply, context);
  });

  app.post('/authorize', { schema: { body: AuthorizeForm }, errorHandler: pageWhenRefused(requestExpired) }, async (request, reply) => {
    const form = request.body;
    const cookies = parseCookie(request.headers.cookie ?? '');
    const pending = await c.pending.findOne({ _id: form.request_id });
    const csrfCookie = cookies[CSRF_COOKIE];
    if (!pending || !csrfCookie || csrfCookie !== form.csrf || !secretMatches(form.csrf, pending.csrfHash)) return requestExpired(reply);
    const context = formContext(pending, form.csrf);

    if (form.step === 'login') {
      const attempt = await deps.login.attempt(request.ip, form.password ?? '');
      if (attempt.refused) return tooManyAttemptsPage(reply, attempt.retryAfterSeconds);
      if (!attempt.matched) return loginPage(reply, context, 'Wrong password.');
      const session = newSecret('ses');
      await c.sessions.insertOne({ _id: hashSecret(session), expiresAt: new Date(Date.now() + options.loginSessionSeconds * 1000) });
      reply.header(
        'set-cookie',
        stringifySetCookie({ name: SESSION_COOKIE, value: session, httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: options.loginSessionSeconds }),
      );
      return consentPage(reply, context);
    }

    if (!(await hasSession(request))) return loginPage(reply, context);
    // One decision per request: whoever deletes the pending record decides.
    if ((await c.pending.deleteOne({ _id: pending._id })) !== 1) return sendPage(reply, 403, 'Request expired', '<p>This request was already answered.</p>');
    if (form.step === 'deny') {
      return redirectWith(reply, pending.redirectUri, { error: 'access_denied', error_description: 'the request was denied', state: pending.state, iss: endpoints.issuer });
    }
    const code = newSecret('hac');
    await c.codes.insertOne({
      _id: hashSecret(code),
      clientId: pending.clientId,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      resource: pending.resource,
      scope: pending.scope,
      expiresAt: new Date(Date.now() + options.authorizationCodeSeconds * 1000),
    });
    return redirectWith(reply, pending.redirectUri, { code, state: pending.state, iss: endpoints.issuer });
  });

  async function hasSession(request: FastifyRequest): Promise<boolean> {
    const session = parseCookie(request.headers.cookie ?? '')[SESSION_COOKIE];
    return session !== undefined && (await c.sessions.findOne({ _id: hashSecret(session) })) !== null;
  }

  function formContext(pending: PendingRecord, csrf: string): FormContext {
    return {
      action: new URL(endpoints.authorization).pathname,
      requestId: pending._id,
      csrf,
      clientName: pending.clientName,
      clientId: pending.clientId,
      resource: pending.resource,
    };
  }
}


function requestExpired(reply: FastifyReply): FastifyReply {
  return sendPage(reply, 403, 'Request expired', '<p>This approval request is no longer valid. Start again from the application.</p>');
}

function redirectWith(reply: FastifyReply, redirectUri: string, parameters: Record<string, string | undefined>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(key, value);
  return reply.header('cache-control', 'no-store').redirect(url.href, 302);
}
