import type { ToolIndex } from './tool-index.js';
import { DEFAULT_LIMIT, MAX_LIMIT, SearchToolsInput, SearchToolsOutput } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { hubStanding, type MetaTool, offeredOnHub, structured, toolError, unknownServerMessage } from '../../core/plugin/meta-tool.js';

/**
 * `search_tools`: the tools of every server the caller could list with `list_tools`,
 * ranked for a query. It reads the index only: no server is woken, started or asked (a
 * tool gate is, as for `list_tools`).
 */
export function searchTools(hub: PluginHub, index: ToolIndex): MetaTool {
  return {
    name: 'search_tools',
    description:
      "Finds tools across every server by what they do, in plain words (synonyms count), without opening each server: ranked matches with their server, best first, and the words that matched. Sleeping servers are searched too and are not woken. Next, call get_tool_schema with a result's server and tool, then call_tool with the same; or, where run_code is offered, ask withCode for each result's TypeScript declaration and write the program.",
    inputSchema: SearchToolsInput,
    outputSchema: SearchToolsOutput,
    annotations: { title: 'Search tools', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async call(args, context) {
      const { request } = context;
      const { query, limit = DEFAULT_LIMIT, server, withCode = false } = args as SearchToolsInput;
      if (server !== undefined) {
        const view = hub.servers.get(server);
        const standing = view && hubStanding(view, request);
        if (!view || standing === 'unreachable') return toolError(`${unknownServerMessage(server)} Call list_servers for the configured servers.`);
        if (standing === 'hidden') return toolError(`Server "${server}" is not offered through /hub (hub: false). Use its own endpoint: ${hub.settings.baseUrl}/${server}/mcp`);
      }
      // As list_tools does: a gate withholding a tool now is asked afresh (a review of a list just
      // seen, or an approval given elsewhere, may be under way), so a search finds what a listing would.
      const withholding = hub.servers.list().filter((view) => (server === undefined || view.name === server) && view.withheldTools.length > 0 && offeredOnHub(view, request));
      await Promise.all(withholding.map((view) => view.recheckWithheld()));
      const answer = index.search({ query, limit: Math.min(limit, MAX_LIMIT), ...(server !== undefined && { server }), reaches: (view) => offeredOnHub(view, request) });
      const notices = [limit > MAX_LIMIT ? `limit ${limit} is over the maximum, ${MAX_LIMIT}: at most ${MAX_LIMIT} tools are returned.` : undefined, answer.notice];
      if (withCode) {
        // Code mode provides the declarations (hub.toolDeclarations); this plugin never imports it.
        const declarations = hub.toolDeclarations.current;
        if (declarations === undefined) notices.push('withCode: code mode is off on this hub (no run_code), so no declarations; call get_tool_schema and call_tool.');
        else
          for (const found of answer.tools) {
            const view = hub.servers.get(found.server);
            const tool = view?.findTool(found.tool);
            const code = view && tool && declarations.declare(view, tool, context);
            if (code !== undefined) found.code = code;
          }
      }
      const notice = notices.filter((part) => part !== undefined).join(' ');
      if (notice === '') delete answer.notice;
      else answer.notice = notice;
      return structured(answer satisfies SearchToolsOutput);
    },
  };
}
