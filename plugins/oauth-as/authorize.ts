import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { ClientAuthenticator, KnownClient } from './client-auth.js';
import type { Endpoints } from './endpoints.js';
import { OAuthError } from './errors.js';
import type { OAuthAsOptions } from './options.js';
import { consentPage } from './pages.js';
import type { PendingRequests } from './pending.js';
import type { Collections } from './records.js';
import { redirectAllowed, redirectUriProblem } from './redirects.js';
import { KeywordParameter, SecretParameter, UrlParameter } from './validation.js';
import { hashSecret, newSecret } from '../../core/plugin/auth.js';
import { escapeHtml, type OperatorService, pageWhenRefused } from '../../core/plugin/pages.js';

/**
 * The parameters of an authorization request (RFC 6749 section 4.1.1, RFC 7636, RFC 8707),
 * bounded: they travel with the pending request, sealed in the approval form. The schema says only what each must be
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
  // The sealed request: its parameters as bounded above, encrypted; a few kilobytes at most.
  request: Type.String({ maxLength: 16_384 }),
  _csrf: SecretParameter,
  step: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
  // Longer than any password a person types; keeps what is hashed per attempt small.
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});

interface Dependencies {
  c: Collections;
  clients: ClientAuthenticator;
  endpoints: Endpoints;
  pending: PendingRequests;
  operator: OperatorService;
  options: OAuthAsOptions;
}

/**
 * The authorization endpoint, a page of the operator service (`hub.operator`: CSRF, the
 * frame, the password check with the shared throttle). GET checks the request (errors
 * about the client or the redirect are shown, never redirected) and shows the approval
 * page with the request sealed in its form (nothing is stored for it); the form POSTs back
 * with the hub password to allow, or without to deny.
 */
export async function registerAuthorize(app: FastifyInstance, deps: Dependencies): Promise<void> {
  const { c, endpoints, operator, options, pending } = deps;
  const cannot = (reply: FastifyReply, problem: string) => operator.sendPage(reply, 400, 'Cannot authorize', `<p>${problem}</p>`);
  const expired = (reply: FastifyReply) => operator.sendPage(reply, 403, 'Request expired', '<p>This approval request is no longer valid. Start again from the application.</p>');
  const consent = (reply: FastifyReply, client: KnownClient, request: string, resource: string, error?: string) =>
    consentPage(operator, reply, { action: operator.url('/authorize'), request, clientName: client.name, clientId: client.clientId, resource }, error);

  await operator.pages(app, (context) => {
    const routes = context.withTypeProvider<TypeBoxTypeProvider>();
    routes.get(
      '/authorize',
      { schema: { querystring: AuthorizeQuery }, errorHandler: pageWhenRefused((reply, error) => cannot(reply, `The application sent a malformed request: ${escapeHtml(error.message)}.`)) },
      async (request, reply) => {
        const query = request.query;
        let client: KnownClient;
        try {
          client = await deps.clients.find(query.client_id ?? '');
        } catch (error) {
          if (error instanceof OAuthError) return cannot(reply, escapeHtml(error.description));
          throw error;
        }
        const uris = client.metadata.redirect_uris;
        const redirectUri = query.redirect_uri ?? (uris.length === 1 ? uris[0] : undefined);
        if (!redirectUri || !redirectAllowed(redirectUri, uris)) {
          const unsafe = redirectUri === undefined ? undefined : redirectUriProblem(redirectUri);
          return cannot(reply, unsafe ? `The redirect URI is not allowed: ${escapeHtml(unsafe)}` : 'The redirect URI is not registered for this client.');
        }
        const fail = (error: string, description: string) => redirectWith(reply, redirectUri, { error, error_description: description, state: query.state, iss: endpoints.issuer });
        if (query.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
        if (!query.code_challenge) return fail('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256');
        if (query.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
        const resource = endpoints.resource(query.resource ?? endpoints.defaultResource);
        if (!resource) return fail('invalid_target', 'resource is not an MCP endpoint of this hub');

        const sealed = await pending.seal({ clientId: client.clientId, redirectUri, state: query.state, codeChallenge: query.code_challenge, resource, scope: query.scope ?? '' });
        return consent(reply, client, sealed, resource);
      },
    );

    routes.post(
      '/authorize',
      {
        schema: { body: AuthorizeForm },
        errorHandler: pageWhenRefused((reply, error) => {
          // A field missing altogether is a misnamed form, not an old one: say which field.
          const missing = error.validation?.find((problem) => problem.keyword === 'required')?.params;
          const names = [missing?.requiredProperties, missing?.missingProperty].flat().filter((name): name is string => typeof name === 'string');
          if (names.length === 0) return expired(reply);
          return cannot(reply, `The form has no ${names.map((name) => `"${escapeHtml(name)}"`).join(', ')} field (the approval form sends "request", "_csrf", "step" and "password").`);
        }),
      },
      async (request, reply) => {
        const form = request.body;
        const opened = await pending.open(form.request);
        if (!opened) return expired(reply);
        if (form.step === 'deny') {
          return redirectWith(reply, opened.redirectUri, { error: 'access_denied', error_description: 'the request was denied', state: opened.state, iss: endpoints.issuer });
        }
        // The client may have been deleted, or its redirect URIs changed, since the page was shown.
        let client: KnownClient;
        try {
          client = await deps.clients.find(opened.clientId);
        } catch (error) {
          if (error instanceof OAuthError) return cannot(reply, escapeHtml(error.description));
          throw error;
        }
        if (!redirectAllowed(opened.redirectUri, client.metadata.redirect_uris)) return cannot(reply, 'The redirect URI is no longer registered for this client.');

        const check = await operator.confirmPassword(request, reply, form.password ?? '');
        if (check === 'refused') return reply;
        if (check === 'wrong') return consent(reply, client, form.request, opened.resource, 'Wrong password.');
        // One decision per request: the first approval records it.
        if (!(await pending.decide(opened))) return operator.sendPage(reply, 403, 'Request expired', '<p>This request was already answered.</p>');
        const code = newSecret('hac');
        await c.codes.insertOne({
          _id: hashSecret(code),
          clientId: opened.clientId,
          redirectUri: opened.redirectUri,
          codeChallenge: opened.codeChallenge,
          resource: opened.resource,
          scope: opened.scope,
          expiresAt: new Date(Date.now() + options.authorizationCodeSeconds * 1000),
        });
        return redirectWith(reply, opened.redirectUri, { code, state: opened.state, iss: endpoints.issuer });
      },
    );
  });
}

function redirectWith(reply: FastifyReply, redirectUri: string, parameters: Record<string, string | undefined>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(key, value);
  return reply.header('cache-control', 'no-store').redirect(url.href, 302);
}
