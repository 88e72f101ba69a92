import type { ToolIndex } from './tool-index.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_LENGTH } from './schemas.js';
import { declaredCommand, type AdminCommand, type AdminOutput, type PluginHub } from '../../core/plugin/index.js';
import manifest from './manifest.js';

const declared = declaredCommand(manifest, 'tools search');
const USAGE = declared.usage;

/**
 * `hub-admin tools search <query>`: the search of `search_tools` over every server, `hub:
 * false` ones included (the operator sees them all), from the servers' snapshots: hub-admin
 * starts no server. One line per tool: server, tool, score, first line of its description.
 */
export function searchCommand(hub: PluginHub, index: ToolIndex): AdminCommand {
  const refuse = (output: AdminOutput, message: string): number => {
    output.stderr(`hub-admin: ${message}\nusage: hub-admin ${USAGE}\n`);
    return 2;
  };
  return {
    ...declared,
    async run(args, output) {
      const out = (line: string) => output.stdout(`${line}\n`);
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
        return refuse(output, `no server is named "${server}" (configured: ${hub.servers.list().map((view) => view.name).join(', ') || 'none'})`);
      }
      const answer = index.search({ query, limit, ...(server !== undefined && { server }), reaches: () => true });
      for (const tool of answer.tools) output.stdout(`${[tool.server, tool.tool, tool.score.toFixed(3), tool.description, tool.matched.join(', ')].join('\t')}\n`);
      if (answer.tools.length === 0) output.stderr('no tool matches\n');
      for (const { server: name, reason } of answer.notSearchable ?? []) output.stderr(`not searched: ${name}: ${reason}\n`);
      return 0;
    },
  };
}
