import { Type, type Static } from 'typebox';
import { DESCRIPTION_LINE_MAX, ToolAnnotationsSchema } from '../../core/plugin/meta-tool.js';

/* The input and output of search_tools. The output is object-rooted, so it is the same on both MCP revisions. */

export const MAX_QUERY_LENGTH = 300;
export const MAX_LIMIT = 25;
export const DEFAULT_LIMIT = 8;

export const SearchToolsInput = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'What the tool should do, in plain words or keywords ("create a github issue", "geocode address")' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_LIMIT, description: `How many tools at most (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}: more is taken as ${MAX_LIMIT})` })),
    server: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Search only this server (a name from list_servers)' })),
    withCode: Type.Optional(Type.Boolean({ description: "With code mode (run_code): each result's TypeScript declaration, how a program calls it, so that get_code_api is not needed" })),
  },
  { additionalProperties: false },
);

export const FoundTool = Type.Object({
  server: Type.String({ description: 'The server that offers the tool: pass it as `server` to get_tool_schema and call_tool' }),
  tool: Type.String({ description: "The tool's name: pass it as `tool` to get_tool_schema and call_tool" }),
  title: Type.String({ description: "The tool's title (its name when it declared none)" }),
  description: Type.String({ description: `First line of the description, at most ${DESCRIPTION_LINE_MAX} characters` }),
  matched: Type.Array(Type.String(), { description: 'Why it matched: the words of the query found in the tool, a word found through a synonym as "directory (for folder)"' }),
  score: Type.Number({ description: 'Relevance; higher is better, comparable within one answer only' }),
  hasOutputSchema: Type.Optional(Type.Literal(true, { description: 'The tool returns structuredContent described by an output schema' })),
  annotations: Type.Optional(ToolAnnotationsSchema),
  code: Type.Optional(Type.String({ description: 'With withCode: the tool as a run_code program calls it, its description as a doc comment and its argument and result types' })),
});

export const NotSearchable = Type.Object({
  server: Type.String(),
  reason: Type.String({ description: 'Why its tools are not known (it never started); list_tools or wake_server starts it' }),
});

export const SearchToolsOutput = Type.Object({
  tools: Type.Array(FoundTool, { description: 'Best first' }),
  notSearchable: Type.Optional(Type.Array(NotSearchable, { description: 'Servers the caller may use whose tools were never seen, so not searched (nothing was started to learn them)' })),
  notice: Type.Optional(Type.String({ description: 'What was searched when nothing matched, that a limit over the maximum was lowered, or that withCode found no code mode' })),
});

export type SearchToolsInput = Static<typeof SearchToolsInput>;
export type FoundTool = Static<typeof FoundTool>;
export type NotSearchable = Static<typeof NotSearchable>;
export type SearchToolsOutput = Static<typeof SearchToolsOutput>;
