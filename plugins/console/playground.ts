import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { isUnknownTarget, type CallerRequest } from '../../core/plugin/meta-tool.js';
import type { ServedRevision } from '../../core/plugin/revision.js';
import { hubErrorCode, type PluginHub } from '../../core/plugin/index.js';
import { sendApiError } from '../../core/plugin/pages.js';
import { CONSOLE_ERROR_CODES } from './errors.js';
import { API } from './servers-api.js';

// Tool names are bounded by the hub's own listing; the bound keeps a URL small.
const CallParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), tool: Type.String({ minLength: 1, maxLength: 512 }) });
const CallBody = Type.Object({ arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: false });

/** The caller a console call is recorded as (the access record's `client`): the operator, logged in to the console. */
const CONSOLE_CALLER = 'console';

/**
 * `POST /console/api/servers/<name>/tools/<tool>/call`: the playground's call, made as the
 * operator through the hub's call pipeline (`hub.servers.callTool`: the server's filter,
 * tool gates, interceptors, timeout, metrics and the access record, with `via: "console"`),
 * on the newest revision the hub serves; the result as that revision presents it, with
 * the outcome and the duration.
 */
export function registerPlayground(context: FastifyInstance, hub: PluginHub): void {
  const routes = context.withTypeProvider<TypeBoxTypeProvider>();
  routes.post(
    `${API}/servers/:name/tools/:tool/call`,
    { config: { operatorApi: true }, onRequest: hub.operator.requireApiSession, schema: { params: CallParams, body: CallBody } },
    async (request, reply) => {
      const { name, tool } = request.params;
      const view = hub.servers.get(name);
      if (!view) return sendApiError(reply, 404, CONSOLE_ERROR_CODES.SERVER_NOT_FOUND, `No server "${name}" is running in the hub.`);
      const revision = servedRevision(hub);
      if (!revision) return sendApiError(reply, 503, CONSOLE_ERROR_CODES.CALL_FAILED, 'No MCP revision plugin is enabled: the hub serves no calls.');
      const cancelled = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) cancelled.abort(new Error('the console closed the request'));
      });
      const caller: CallerRequest = {
        meta: undefined,
        envelope: {},
        signal: cancelled.signal,
        notify: async () => undefined,
        answers: undefined,
        clientId: CONSOLE_CALLER,
        access: request.access ?? undefined,
        servers: undefined,
      };
      // The access record names the caller as the MCP endpoints name theirs: here, the console.
      if (request.access) request.access.client = CONSOLE_CALLER;
      const started = performance.now();
      request.log.info({ server: name, tool }, 'console: tool call from the playground');
      try {
        const result = await hub.servers.callTool(view, { name: tool, arguments: request.body.arguments ?? {} }, { revision, request: caller, via: 'console' });
        const durationMs = Math.round(performance.now() - started);
        if (isUnknownTarget(result) && result.unknown === 'server') return sendApiError(reply, 404, CONSOLE_ERROR_CODES.SERVER_NOT_FOUND, `No server "${name}" is running in the hub.`);
        if (isUnknownTarget(result))
          return sendApiError(reply, 404, CONSOLE_ERROR_CODES.TOOL_NOT_FOUND, `Server "${name}" offers no tool "${tool}" to callers (unknown, or kept out by its allowTools/denyTools).`);
        return reply.header('cache-control', 'no-store').send({ result, outcome: request.access?.outcome ?? null, durationMs, revision: revision.revision });
      } catch (error) {
        return sendApiError(reply, 502, CONSOLE_ERROR_CODES.CALL_FAILED, (error as Error).message, { cause: hubErrorCode(error) ?? null, durationMs: Math.round(performance.now() - started) });
      }
    },
  );
}

/** The newest revision the hub serves callers on (revision strings are dates: they sort). */
function servedRevision(hub: PluginHub): ServedRevision | undefined {
  const newest = hub.revisions
    .values()
    .filter((revision) => revision.callers !== undefined)
    .sort((a, b) => b.revision.localeCompare(a.revision))[0];
  return newest?.callers && { ...newest.callers, revision: newest.revision };
}
