import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';

export const HubWellKnownOptions = Type.Object({
  hubPrefix: Type.String({ description: 'The prefix the hub is registered under in this app, as given to `register` (e.g. `/tools`).' }),
});
export type HubWellKnownOptions = Static<typeof HubWellKnownOptions>;

/** The discovery documents RFC 8414 and RFC 9728 place at the origin's root, with the resource's or issuer's path after them. */
const DOCUMENTS = ['oauth-protected-resource', 'oauth-authorization-server', 'openid-configuration'];
/** What a discovery answer may carry back from the hub's own route. */
const KEPT_HEADERS = ['content-type', 'cache-control', 'access-control-allow-origin'];
/** The request headers the hub's routes read for the public address (the Host rule, trusted proxies). */
const FORWARDED_HEADERS = ['host', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'forwarded'];

/**
 * For an app that embeds the hub under a prefix: registered at the app's root, it answers
 * the well-known discovery URLs there (`/.well-known/oauth-protected-resource/tools/hub`,
 * `/.well-known/oauth-authorization-server/tools`, ...), which RFC 8414 and RFC 9728 put at
 * the origin's root and which the hub's 401s name, with what the hub serves under its
 * prefix (`/tools/.well-known/...`). A route of the hub's own context cannot escape its
 * prefix, hence this one call in the app; the answer comes from the hub's routes through
 * `inject`, so there is one source of the documents (oauth-as's, when it is on).
 */
export async function hubWellKnown(app: FastifyInstance, options: HubWellKnownOptions): Promise<void> {
  const prefix = options.hubPrefix.replace(/\/+$/, '');
  if (!/^\/[^?#]+$/.test(prefix)) {
    throw new StartupError(`hubWellKnown: hubPrefix must be the hub's prefix, a path such as /tools (got ${JSON.stringify(options.hubPrefix)}); a hub at the root serves these documents itself`, {
      code: HUB_ERROR_CODES.STARTUP,
    });
  }
  for (const document of DOCUMENTS) {
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      const rest = request.url.slice(`/.well-known/${document}${prefix}`.length).replace(/\?.*$/, '');
      const headers = Object.fromEntries(FORWARDED_HEADERS.flatMap((name) => (typeof request.headers[name] === 'string' ? [[name, request.headers[name]]] : [])));
      const answer = await app.inject({ method: 'GET', url: `${prefix}/.well-known/${document}${rest}`, headers });
      for (const name of KEPT_HEADERS) {
        const value = answer.headers[name];
        if (value !== undefined) reply.header(name, value);
      }
      return reply.code(answer.statusCode).send(answer.rawPayload);
    };
    app.get(`/.well-known/${document}${prefix}`, forward);
    app.get(`/.well-known/${document}${prefix}/*`, forward);
  }
}
