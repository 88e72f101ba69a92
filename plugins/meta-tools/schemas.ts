import { Type, type Static } from 'typebox';
import { DESCRIPTION_LINE_MAX, ToolAnnotationsSchema } from '../../core/plugin/meta-tool.js';

/*
 * Input and output schemas of the six meta-tools. Outputs are object-rooted, so they are
 * the same on both MCP revisions; `index.ts` publishes them as the plugin's public schemas.
 */

const ServerName = Type.String({ minLength: 1, description: 'Server name, as returned by list_servers' });
const ToolName = Type.String({ minLength: 1, description: 'Tool name, as returned by list_tools' });

const JsonSchema = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const Status = Type.Enum(['starting', 'up', 'down', 'stopped', 'sleeping', 'unauthorized'], {
  description: 'sleeping servers wake on call_tool or wake_server',
});

export const NoInput = Type.Object({}, { additionalProperties: false });
export const ServerInput = Type.Object({ server: ServerName }, { additionalProperties: false });
export const ToolInput = Type.Object({ server: ServerName, tool: ToolName }, { additionalProperties: false });
export const CallToolInput = Type.Object(
  {
    server: ServerName,
    tool: ToolName,
    arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "The tool's arguments, matching the inputSchema from get_tool_schema" })),
  },
  { additionalProperties: false },
);

export const ServerEntry = Type.Object({
  name: Type.String(),
  description: Type.String({ description: "The server's title, or its name" }),
  status: Status,
  toolCount: Type.Optional(Type.Integer({ minimum: 0, description: 'Tools offered (sleeping servers: from their last run); absent while not known (never started): list_tools learns it' })),
  reason: Type.Optional(Type.String({ description: 'Why the server is down, stopped or unauthorized' })),
  hidden: Type.Optional(Type.Literal(true, { description: 'Not part of /hub (hub: false): use its own endpoint for tools; wake_server and sleep_server still work' })),
  withheldTools: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Tools withheld until an operator approves them (their definition changed, or they are new); not in toolCount or list_tools. Calling one says how they are approved',
    }),
  ),
});

export const ListServersOutput = Type.Object({ servers: Type.Array(ServerEntry) });

export const ToolEntry = Type.Object({
  name: Type.String(),
  description: Type.String({ description: `First line of the description, at most ${DESCRIPTION_LINE_MAX} characters` }),
  annotations: Type.Optional(ToolAnnotationsSchema),
  hasOutputSchema: Type.Optional(Type.Literal(true, { description: 'The tool returns structuredContent described by an output schema' })),
});

export const ListToolsOutput = Type.Object({ server: Type.String(), tools: Type.Array(ToolEntry) });

export const ToolSchemaOutput = Type.Object({
  server: Type.String(),
  name: Type.String(),
  description: Type.String(),
  inputSchema: JsonSchema("JSON Schema of the tool's arguments"),
  outputSchema: Type.Optional(JsonSchema("JSON Schema of the tool's structuredContent")),
  annotations: Type.Optional(ToolAnnotationsSchema),
});

export const WakeServerOutput = Type.Object({ name: Type.String(), status: Status, toolCount: Type.Integer({ minimum: 0 }) });
export const SleepServerOutput = Type.Object({ name: Type.String(), status: Status });

export type ServerEntry = Static<typeof ServerEntry>;
export type ToolEntry = Static<typeof ToolEntry>;
export type ListServersOutput = Static<typeof ListServersOutput>;
export type ListToolsOutput = Static<typeof ListToolsOutput>;
export type ToolSchemaOutput = Static<typeof ToolSchemaOutput>;
export type WakeServerOutput = Static<typeof WakeServerOutput>;
export type SleepServerOutput = Static<typeof SleepServerOutput>;
export type ServerInput = Static<typeof ServerInput>;
export type ToolInput = Static<typeof ToolInput>;
export type CallToolInput = Static<typeof CallToolInput>;
