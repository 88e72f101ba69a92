import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ConfigProblems, ConfigText, PluginHub } from '../../core/plugin/index.js';
import { sendApiError } from '../../core/plugin/pages.js';
import { changedKeys, configDiff, withEntry, writtenEntries } from './entry-edit.js';
import { redactedEntry, redactedOutput, redactedText, restoredEntry } from './entry-secrets.js';
import { CONSOLE_ERROR_CODES } from './errors.js';
import { actionsFor } from './server-actions.js';
import type { ServerFigures } from './server-figures.js';

export const API = '/console/api';

/** How long a test start may take before it is given up (a container pulling its image takes a while). */
const TRIAL_BUDGET_MS = 60_000;
/** Texts of the config the page may still hold, by version, to show what changed when its save meets a newer file. */
const REMEMBERED_TEXTS = 32;

// Server names are checked by the hub's own checker; the bound only keeps a URL small.
const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
const Entry = Type.Record(Type.String(), Type.Unknown(), { description: 'The server entry as it goes into mcpServers.' });
const Version = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The version of the config file the page read (GET /console/api/servers).' });
const PutBody = Type.Object(
  { entry: Entry, version: Version, new: Type.Optional(Type.Boolean({ description: 'An entry added (or a copy): refused when the name is taken, never a replacement.' })) },
  { additionalProperties: false },
);
const DeleteBody = Type.Object({ version: Version }, { additionalProperties: false });
const TestBody = Type.Object({ entry: Type.Optional(Entry) }, { additionalProperties: false });

/** What the routes of the API share: JSON refusals, the operator session only, no caching. */
const api = { config: { operatorApi: true } } as const;

/**
 * The servers part of the console's JSON API, which only the console page uses:
 * the list, save and remove (the config file edited with jsonc-parser, written
 * atomically over the version the page read), and a test start apart from the hub.
 */
export function registerServersApi(context: FastifyInstance, hub: PluginHub, figures: ServerFigures): void {
  const { operator } = hub;
  const routes = context.withTypeProvider<TypeBoxTypeProvider>();
  const texts = new Map<string, string>();
  const remember = (read: ConfigText): ConfigText => {
    texts.delete(read.version);
    texts.set(read.version, read.text);
    if (texts.size > REMEMBERED_TEXTS) texts.delete(texts.keys().next().value as string);
    return read;
  };
  const onRequest = operator.requireApiSession;

  routes.get(`${API}/servers`, { ...api, onRequest }, async (_request, reply) => {
    const read = remember(await hub.configFile.read());
    const written = writtenEntries(read.text);
    const readOnly = (await hub.configFile.unwritable()) ?? (written === undefined ? 'the config file does not parse as it is now: fix it by hand first (hub check says where)' : undefined);
    const names = new Set([...Object.keys(written ?? {}), ...hub.servers.list().map((server) => server.name)]);
    const servers = [...names].sort().map((name) => {
      const view = hub.servers.get(name);
      const entry = written?.[name];
      const shown = entry === undefined ? undefined : redactedEntry(entry);
      return {
        name,
        configured: entry !== undefined,
        type: typeof entry?.type === 'string' ? entry.type : (view?.entry.type ?? (entry?.url !== undefined ? 'http' : 'stdio')),
        status: view?.status ?? (entry?.disabled === true ? 'disabled' : 'not running'),
        toolCount: view?.toolsKnown ? view.tools.length : null,
        lastError: view?.problem ?? view?.lastError ?? null,
        ...figures.of(name),
        actions: view ? actionsFor(view) : [],
        entry: shown?.entry ?? null,
        secrets: shown?.secrets ?? [],
      };
    });
    return reply.header('cache-control', 'no-store').send({ file: hub.configFile.path ?? null, version: read.version, readOnly: readOnly ?? null, servers });
  });

  // From what the hub already knows (the live list, or the snapshot of a sleeping server): nothing is started to answer.
  routes.get(`${API}/servers/:name/tools`, { ...api, onRequest, schema: { params: NameParams } }, async (request, reply) => {
    const view = hub.servers.get(request.params.name);
    if (!view) return sendApiError(reply, 404, CONSOLE_ERROR_CODES.SERVER_NOT_FOUND, `No server "${request.params.name}" is running in the hub (a disabled or removed one has no tools to show).`);
    const tools = view.tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({ name, title, description, inputSchema, outputSchema, annotations }));
    return reply
      .header('cache-control', 'no-store')
      .send({ server: view.name, status: view.status, toolsKnown: view.toolsKnown, tools, withheld: view.withheldTools.map(({ name, reason }) => ({ name, reason })) });
  });

  routes.get(`${API}/schemas`, { ...api, onRequest }, async (_request, reply) => reply.header('cache-control', 'no-store').send(hub.configFile.schemas()));

  routes.put(`${API}/servers/:name`, { ...api, onRequest, schema: { params: NameParams, body: PutBody } }, async (request, reply) => {
    const { name } = request.params;
    if (request.body.new === true && (writtenEntries((await hub.configFile.read()).text) ?? {})[name] !== undefined) {
      return sendApiError(reply, 409, CONSOLE_ERROR_CODES.NAME_TAKEN, `A server named "${name}" is in the config file already: choose another name (a new entry never replaces one).`);
    }
    return save(request, reply, name, request.body.entry, request.body.version);
  });

  routes.delete(`${API}/servers/:name`, { ...api, onRequest, schema: { params: NameParams, body: DeleteBody } }, async (request, reply) => {
    return save(request, reply, request.params.name, undefined, request.body.version);
  });

  routes.post(`${API}/servers/:name/test`, { ...api, onRequest, schema: { params: NameParams, body: TestBody } }, async (request, reply) => {
    const { name } = request.params;
    const read = await hub.configFile.read();
    const written = writtenEntries(read.text) ?? {};
    const sent = request.body.entry === undefined ? undefined : restoredEntry(request.body.entry, written[name]);
    if (sent !== undefined && 'missing' in sent) return keptWithoutValue(reply, sent.missing);
    const entry = sent?.entry ?? written[name];
    if (entry === undefined) return sendApiError(reply, 404, CONSOLE_ERROR_CODES.SERVER_NOT_FOUND, `No server "${name}" is in the config file; send the entry to test.`);
    const problem = hub.configFile.check(withEntry(read.text, name, { ...entry, disabled: undefined }));
    if (problem?.server === name) return sendApiError(reply, 422, CONSOLE_ERROR_CODES.ENTRY_INVALID, problem.message, { key: problem.key ?? null, errors: fieldErrors(problem, name) });
    request.log.info({ server: name }, 'console: test start of a server entry');
    const trial = await hub.configFile.trial(name, entry, TRIAL_BUDGET_MS);
    // A child may print what it was given (a token in an error, its environment): masked as literal secrets are.
    const shown = trial.ok ? trial : { ...trial, error: redactedOutput(trial.error, entry, hub.env), stderr: trial.stderr.map((line) => redactedOutput(line, entry, hub.env)) };
    return reply.header('cache-control', 'no-store').send(shown);
  });

  async function save(request: FastifyRequest, reply: FastifyReply, name: string, sent: Record<string, unknown> | undefined, version: string): Promise<FastifyReply> {
    const read = await hub.configFile.read();
    const written = writtenEntries(read.text);
    const restored = sent === undefined ? undefined : restoredEntry(sent, written?.[name]);
    if (restored !== undefined && 'missing' in restored) return keptWithoutValue(reply, restored.missing);
    const entry = restored?.entry;
    const unwritable = await hub.configFile.unwritable();
    if (unwritable !== undefined) {
      return sendApiError(reply, 409, CONSOLE_ERROR_CODES.READ_ONLY, `The console cannot write the config: ${unwritable}. Paste the entry into the file where it comes from.`, {
        reason: unwritable,
        paste: sent === undefined ? null : JSON.stringify({ [name]: sent }, null, 2),
      });
    }
    if (written === undefined) return sendApiError(reply, 409, CONSOLE_ERROR_CODES.CONFIG_UNREADABLE, 'The config file does not parse as it is now: fix it by hand first (hub check says where).');
    if (read.version !== version) return conflict(reply, read, version);
    const before = written[name];
    if (entry === undefined && before === undefined) return sendApiError(reply, 404, CONSOLE_ERROR_CODES.SERVER_NOT_FOUND, `No server "${name}" is in the config file.`);
    const text = withEntry(read.text, name, entry);
    const problem = hub.configFile.check(text);
    if (problem !== undefined) {
      return sendApiError(reply, 422, CONSOLE_ERROR_CODES.ENTRY_INVALID, problem.message, {
        key: problem.server === name ? (problem.key ?? null) : null,
        server: problem.server ?? null,
        errors: fieldErrors(problem, name),
      });
    }
    const result = await hub.configFile.write(text, version);
    if (!result.written) return conflict(reply, result.current, version);
    const keys = changedKeys(before, entry);
    const action = entry === undefined ? 'removed' : before === undefined ? 'added' : 'changed';
    request.log.info({ server: name, action, keys }, `console: server "${name}" ${action}${keys.length > 0 ? ` (${keys.join(', ')})` : ''}`);
    const after = remember(await hub.configFile.read());
    return reply.header('cache-control', 'no-store').send({ saved: action, version: after.version, reloaded: result.reloaded });
  }

  function conflict(reply: FastifyReply, current: ConfigText, version: string): FastifyReply {
    remember(current);
    const read = texts.get(version);
    return sendApiError(
      reply,
      409,
      CONSOLE_ERROR_CODES.CONFLICT,
      'The config file changed since this page read it (another browser, or an edit by hand): nothing was written. Look at the difference, reload and save again.',
      {
        version: current.version,
        diff: read === undefined ? null : configDiff(hub.configFile.path ?? 'mcp.json', redactedText(read), redactedText(current.text)),
      },
    );
  }

  function keptWithoutValue(reply: FastifyReply, key: string): FastifyReply {
    const message = `"${key}" keeps a secret this entry does not have in the config file (a copy, or a key renamed): type its \${VAR} reference or _FILE path.`;
    return sendApiError(reply, 422, CONSOLE_ERROR_CODES.ENTRY_INVALID, message, { key, server: null, errors: [{ key, message }] });
  }
}

/**
 * Every field error the checker found, each `{ key, message }` in `hub check`'s words (`key`
 * null for one of another server, or of no field), so the form marks them all at once.
 */
function fieldErrors(problem: ConfigProblems, name: string): { key: string | null; message: string }[] {
  return problem.errors.map((error) => ({ key: error.server === name ? (error.key ?? null) : null, message: error.message }));
}
