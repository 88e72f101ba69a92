import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TOOL_PINNING_ERROR_CODES } from './errors.js';
import { INSTRUCTIONS } from './instructions.js';
import type { ToolPins } from './pins.js';
import { HUB_ERROR_CODES, type PluginHub } from '../../core/plugin/index.js';
import { sendApiError } from '../../core/plugin/pages.js';

export const APPROVALS_PATH = '/tool-approvals';
/** Where the operator console shows the approvals (plugin `console`, the one operator UI). */
const CONSOLE_APPROVALS = '/console/approvals';

/** Definitions one "approve all" may carry (hub-admin approves more). */
const MAX_APPROVE_ALL = 500;
const Digest = Type.String({ pattern: '^[0-9a-f]{64}$' });

const ApproveAllBody = Type.Object(
  {
    server: Type.String({ minLength: 1, maxLength: 64 }),
    /** The digests of the definitions the page showed: only those are approved. */
    digests: Type.Array(Digest, { minItems: 1, maxItems: MAX_APPROVE_ALL }),
  },
  { additionalProperties: false },
);

const ApproveBody = Type.Object(
  {
    server: Type.String({ minLength: 1, maxLength: 64 }),
    /** Absent for the server's instructions (`item`). */
    tool: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    item: Type.Optional(Type.Literal(INSTRUCTIONS)),
    digest: Digest,
  },
  { additionalProperties: false },
);

/** The routes' refusals are JSON with the hub's codes (the operator API's rules: session only, CSRF header, same origin). */
const api = { config: { operatorApi: true } } as const;

/**
 * The tool approvals, which the operator console shows (its "Tool approvals" view), behind
 * the operator login (`hub.operator`): `GET /tool-approvals.json`, every definition that
 * waits with its diff from the one approved before, the servers' "approve all" sets and the
 * servers that pin; `POST /tool-approvals/approve` approves exactly the definition shown (its
 * digest), `POST /tool-approvals/approve-all` exactly the set shown. `/tool-approvals`, the
 * page they were drawn on before the console (and the link a withheld tool's error gives),
 * sends the operator to the console's view.
 */
export async function registerApprovalPage(app: FastifyInstance, hub: PluginHub, pins: ToolPins): Promise<void> {
  const { operator } = hub;
  await operator.pages(app, (context) => {
    const routes = context.withTypeProvider<TypeBoxTypeProvider>();
    const onRequest = operator.requireApiSession;
    routes.get(APPROVALS_PATH, { onRequest: operator.requireSession }, async (_request, reply) => {
      if (!hub.pages.values().some((page) => page.path === '/console')) {
        return operator.sendPage(
          reply,
          404,
          'No approvals page',
          '<p>Tool approvals are shown by the operator console, which is off here (<code>"plugins": { "console": false }</code>). Approve with <code>hub-admin tools approve &lt;server&gt; [&lt;tool&gt;]</code>.</p>',
        );
      }
      return reply.redirect(operator.url(CONSOLE_APPROVALS), 303);
    });

    routes.get(`${APPROVALS_PATH}.json`, { ...api, onRequest }, async (request, reply) => {
      try {
        return reply.header('cache-control', 'no-store').send(await approvals(hub, pins));
      } catch (error) {
        return unavailable(request, reply, error);
      }
    });

    routes.post(`${APPROVALS_PATH}/approve`, { ...api, onRequest, schema: { body: ApproveBody } }, async (request, reply) => {
      const { server, tool, item, digest } = request.body;
      const view = hub.servers.get(server);
      if (!view || !pins.pins(view)) return notPinning(reply, server);
      if ((item === undefined) === (tool === undefined))
        return sendApiError(reply, 400, HUB_ERROR_CODES.OPERATOR_REQUEST_INVALID, 'Name either a "tool" or the "item" "instructions", not both or neither.');
      const what = tool === undefined ? `instructions of server ${server}` : `tool ${tool} of server ${server}`;
      try {
        const approved = await pins.approve(server, tool === undefined ? INSTRUCTIONS : { tool }, 'console', digest);
        if (approved.length === 0) {
          return sendApiError(
            reply,
            409,
            TOOL_PINNING_ERROR_CODES.NOT_WAITING,
            `This version of the ${what} no longer waits for approval: it was approved meanwhile, or it changed again since the page was shown. Reload the approvals.`,
          );
        }
        return reply.header('cache-control', 'no-store').send({ approved: approved.length, message: `Approved ${what}.` });
      } catch (error) {
        return unavailable(request, reply, error);
      }
    });

    // A server's every waiting definition in one click (a new 40-tool server is not 40 clicks),
    // as `hub-admin tools approve <server>` does; exactly the ones the page showed.
    routes.post(`${APPROVALS_PATH}/approve-all`, { ...api, onRequest, schema: { body: ApproveAllBody } }, async (request, reply) => {
      const { server, digests } = request.body;
      const view = hub.servers.get(server);
      if (!view || !pins.pins(view)) return notPinning(reply, server);
      try {
        const approved = await pins.approve(server, 'all', 'console', new Set(digests));
        if (approved.length === 0) {
          return sendApiError(
            reply,
            409,
            TOOL_PINNING_ERROR_CODES.NOT_WAITING,
            `None of the definitions of server ${server} the page showed waits for approval any more: they were approved meanwhile, or changed again since. Reload the approvals.`,
          );
        }
        const count = approved.length;
        return reply.header('cache-control', 'no-store').send({ approved: count, message: `Approved ${count} definition${count === 1 ? '' : 's'} of server ${server}.` });
      } catch (error) {
        return unavailable(request, reply, error);
      }
    });
  });
}

/** What waits, the "approve all" set of each server with more than one approvable definition waiting, and the servers that pin. */
async function approvals(hub: PluginHub, pins: ToolPins) {
  const changes = await pins.pending();
  const approved = await pins.approved();
  const byServer = new Map<string, string[]>();
  for (const change of changes) if (change.tooLarge === undefined) byServer.set(change.server, [...(byServer.get(change.server) ?? []), change.digest]);
  return {
    waiting: changes.map((change) => ({
      server: change.server,
      tool: change.item === INSTRUCTIONS ? null : change.tool,
      item: change.item ?? null,
      digest: change.digest,
      new: change.approved === undefined,
      seenAt: change.seenAt.toISOString(),
      tooLarge: change.tooLarge ?? null,
      diff: change.tooLarge === undefined ? change.diff : null,
    })),
    approveAll: [...byServer]
      .filter(([, digests]) => digests.length > 1)
      .map(([server, digests]) => (digests.length > MAX_APPROVE_ALL ? { server, count: digests.length, digests: null } : { server, count: digests.length, digests })),
    pinning: hub.servers
      .list()
      .filter((server) => pins.pins(server))
      .map((server) => ({ server: server.name, approved: approved.filter((pin) => pin.server === server.name && pin.item === undefined).length, withheld: server.withheldTools.length })),
  };
}

function notPinning(reply: FastifyReply, server: string): FastifyReply {
  return sendApiError(reply, 404, TOOL_PINNING_ERROR_CODES.SERVER_NOT_PINNING, `No server named ${server} pins its tools.`);
}

/** The store did not answer (or an approval kept meeting others): said to the page, and logged. */
function unavailable(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  request.log.warn({ err: (error as Error).message }, 'the tool approvals failed');
  return sendApiError(reply.header('retry-after', '5'), 503, HUB_ERROR_CODES.STORE_UNAVAILABLE, `The approvals cannot be read or written now: ${(error as Error).message}. Try again in a moment.`);
}
