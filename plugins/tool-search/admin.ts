import { setTimeout as delay } from 'node:timers/promises';
import type { ToolIndex } from './tool-index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_LENGTH } from './schemas.js';
import { errorMessage, declaredCommand, type AdminCommand, type AdminOutput, type PluginHub } from '../../core/plugin/index.js';
import manifest from './manifest.js';

const declared = declaredCommand(manifest, 'tools search');
const USAGE = declared.usage;

/**
 * `hub-admin tools search <query>`: the search of `search_tools` over every server, `hub:
 * false` ones included (the operator sees them all), from the servers' snapshots: hub-admin
 * starts no server (those that live in the hub's own process are listed there, as the
 * hub does). One line per tool: server, tool, score, first line of its description.
 */
export function searchCommand(hub: PluginHub, index: ToolIndex): AdminCommand {
  const refuse = (output: AdminOutput, message: string): number => {
    output.stderr(`hub-admin: ${message}\nusage: hub-admin ${USAGE}\n`);
    return 2;
  };
  return {
    ...declared,
    async run(args, output) {
      const words: string[] = [];
      let server: string | undefined;
      let limit = DEFAULT_LIMIT;
      for (let i = 0; i < args.length; i += 1) {
        const arg = args[i] as string;
        if (arg === '--server' || arg === '--limit') {
          const value = args[i + 1];
          if (value === undefined) return refuse(output, `${arg} needs a value`);
          i += 1;
          if (arg === '--server') server = value;
          else if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_LIMIT) limit = Number(value);
          else return refuse(output, `--limit must be a whole number from 1 to ${MAX_LIMIT}`);
        } else {
          words.push(arg);
        }
      }
      const query = words.join(' ').trim();
      if (query.length === 0) return refuse(output, 'say what to search for');
      if (query.length > MAX_QUERY_LENGTH) return refuse(output, `the query is longer than ${MAX_QUERY_LENGTH} characters`);
      if (server !== undefined && !hub.servers.get(server)) {
        return refuse(
          output,
          `no server is named "${server}" (configured: ${
            hub.servers
              .list()
              .map((view) => view.name)
              .join(', ') || 'none'
          })`,
        );
      }
      const failed = await listInHubServers(hub);
      const answer = index.search({ query, limit, ...(server !== undefined && { server }), reaches: () => true });
      for (const tool of answer.tools) output.stdout(`${[tool.server, tool.tool, tool.score.toFixed(3), tool.description, tool.matched.join(', ')].join('\t')}\n`);
      if (answer.tools.length === 0) output.stderr('no tool matches\n');
      for (const { server: name, reason } of answer.notSearchable ?? []) output.stderr(`not searched: ${name}: ${failed.get(name) ?? reason}\n`);
      return 0;
    },
  };
}

/** How long hub-admin waits for one server of the hub's own process to list its tools (an OpenAPI server's connect asks its API once, which may not answer). */
const LIST_BOUND_MS = 10_000;

/**
 * The servers that live in the hub's own process (the map server, OpenAPI and virtual
 * servers: always running, with no snapshot, because their tool list is at hand there):
 * hub-admin's hub has not connected them, and they are listed here. That starts no process
 * and wakes nothing (a virtual server composes its tools from the others' known lists; an
 * OpenAPI server reads its document and sends its API the one HEAD request of every
 * connect). Without this they would read as down and never be searched, while the hub that
 * serves them has them up. What could not be listed, by server, with why.
 */
async function listInHubServers(hub: PluginHub): Promise<Map<string, string>> {
  const inHub = (view: ServerView) => view.alwaysRunning && !view.toolsKnown && hub.childTypes.get(view.entry.type ?? '')?.snapshots === false;
  // Every one of them, also for a search of one server: a virtual server may draw on the others.
  const views = hub.servers.list().filter(inHub);
  const failed = new Map<string, string>();
  await Promise.all(
    views.map(async (view) => {
      const listed = view.ensureToolsKnown().then(() => undefined, errorMessage);
      // Unreferenced: a listing that ends first lets hub-admin exit at once.
      const late = delay(LIST_BOUND_MS, undefined, { ref: false }).then(() => `no tool list within ${LIST_BOUND_MS / 1000} s${view.lastError === undefined ? '' : ` (${view.lastError})`}`);
      const why = await Promise.race([listed, late]);
      if (why !== undefined) failed.set(view.name, `its tools could not be listed: ${why}`);
    }),
  );
  // A virtual server may have composed its list before the servers it draws on were listed.
  await Promise.all(views.filter((view) => !failed.has(view.name)).map((view) => view.refreshTools().catch(() => undefined)));
  return failed;
}
