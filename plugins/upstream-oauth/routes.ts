import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { listPage } from './pages.js';
import type { Collections } from './records.js';
import type { Upstream } from './upstream.js';
import { hashSecret } from '../../core/plugin/auth.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml, type OperatorService, pageWhenRefused } from '../../core/plugin/pages.js';

// The hub's secrets (CSRF tokens, states) are under 100 characters, never near this bound.
const Secret = Type.String({ maxLength: 512 });
// The pressed button's own field (`action`) comes along and is ignored.
const ActionForm = Type.Object({ _csrf: Secret });
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
}

/**
 * The operator's page for upstream logins, behind the hub's operator login
 * (`hub.operator`): it lists the upstreams with their status and offers login and logout.
 * Forms only (works without JavaScript); the session, CSRF and the frame are the operator
 * service's. Also the OAuth callback and the per-upstream Client ID Metadata Documents.
 */
export async function registerRoutes(plugin: FastifyInstance, deps: Dependencies): Promise<void> {
  const { c, upstreams } = deps;
  const { operator } = deps.hub;
  // TypeBox's compiler validates the routes' schemas in this plugin's context whatever the
  // embedding app's Ajv options: nothing coerced or removed, unknown fields left alone.
  plugin.setValidatorCompiler(TypeBoxValidatorCompiler);
  plugin.withTypeProvider<TypeBoxTypeProvider>().get('/upstreams/:name/client.json', { schema: { params: NameParams } }, async (request, reply) => {
    const upstream = upstreams.get(request.params.name);
    if (!upstream || upstream.settings.mode !== 'cimd') return reply.code(404).send({ error: 'not_found' });
    return reply.header('cache-control', 'public, max-age=300').send({ client_id: upstream.metadataDocumentUrl, ...(await upstream.clientMetadata()) });
  });

  await operator.pages(plugin, (context) => {
    const app = context.withTypeProvider<TypeBoxTypeProvider>();
    const back = `<p><a href="${escapeHtml(operator.url('/upstreams'))}">Back to the upstreams</a></p>`;

    app.get('/upstreams', { onRequest: operator.requireSession }, async (_request, reply) => listPage(operator, reply, await rows()));

    // The session is checked as the request arrives, before its form is read; the form's origin and CSRF token by the operator service.
    const actionRefused = pageWhenRefused((reply, error) => (error.validationContext === 'params' ? notFound(operator, reply) : expired(operator, reply)));
    app.post('/upstreams/:name/:action', { onRequest: operator.requireSession, schema: { params: ActionParams, body: ActionForm }, errorHandler: actionRefused }, async (request, reply) => {
      const params = request.params;
      const upstream = upstreams.get(params.name);
      if (!upstream) return notFound(operator, reply);
      try {
        if (params.action === 'login') return reply.header('cache-control', 'no-store').redirect((await upstream.startLogin()).href, 303);
        await upstream.logout();
        return listPage(operator, reply, await rows(), `Logged out of ${upstream.name}.`);
      } catch (error) {
        request.log.warn({ server: upstream.name, err: (error as Error).message }, `upstream ${params.action} failed`);
        return operator.sendPage(reply, 502, 'Upstream error', `<p>${escapeHtml((error as Error).message)}</p>${back}`);
      }
    });

    app.get('/upstreams/callback', { schema: { querystring: CallbackQuery }, errorHandler: pageWhenRefused((reply) => expired(operator, reply)) }, async (request, reply) => {
      const query = request.query;
      const pending = await c.pending.findOne({ _id: hashSecret(query.state) });
      // One use per login: whoever deletes the pending record finishes it.
      if (!pending || (await c.pending.deleteOne({ _id: pending._id })) !== 1) return expired(operator, reply);
      const upstream = upstreams.get(pending.server);
      if (!upstream) return expired(operator, reply);
      if (query.error !== undefined) {
        // The error text comes from whoever sent the browser here: it is not shown.
        return operator.sendPage(reply, 400, 'Login not completed', `<p>The authorization server of ${escapeHtml(upstream.name)} did not grant access.</p>${back}`);
      }
      try {
        await upstream.finishLogin(new URLSearchParams({ code: query.code ?? '', ...(query.iss === undefined ? {} : { iss: query.iss }) }), pending.verifier);
      } catch (error) {
        request.log.warn({ server: upstream.name, err: (error as Error).message }, 'upstream login failed');
        return operator.sendPage(reply, 502, 'Login failed', `<p>${escapeHtml((error as Error).message)}</p>${back}`);
      }
      return operator.sendPage(reply, 200, 'Logged in', `<p>The hub is now logged in to <strong>${escapeHtml(upstream.name)}</strong>.</p>${back}`);
    });
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
}

function notFound(operator: OperatorService, reply: FastifyReply): FastifyReply {
  return operator.sendPage(reply, 404, 'Not found', '<p>No such upstream or action.</p>');
}

function expired(operator: OperatorService, reply: FastifyReply): FastifyReply {
  return operator.sendPage(reply, 403, 'Request expired', `<p>This form or login is no longer valid. <a href="${escapeHtml(operator.url('/upstreams'))}">Start again</a>.</p>`);
}
