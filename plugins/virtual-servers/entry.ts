import { Type, type Static } from 'typebox';

/** A tool name as MCP allows it (SEP-986): what `name` and a prefixed name must stay within. */
const TOOL_NAME = '^[A-Za-z0-9_.-]{1,128}$';

/** One selection of a virtual server: a tool of another server (or all of them, `*`), renamed or described anew. */
export const ToolSelection = Type.Object(
  {
    server: Type.String({ minLength: 1, description: 'The server the tool is drawn from: a server of the config (a virtual one too, without a circle).' }),
    tool: Type.String({ minLength: 1, description: 'The tool\'s name on that server, or "*" for every tool it offers callers.' }),
    name: Type.Optional(Type.String({ pattern: TOOL_NAME, description: 'The name the tool takes here (one tool only, not with "*").' })),
    prefix: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'Put before the name of every tool selected (and before `name`).' })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Replaces the tool's description." })),
  },
  { additionalProperties: false },
);
export type ToolSelection = Static<typeof ToolSelection>;

/** The keys of a `virtual` server entry, beside the hub's own (`allowTools`, `hub`, ...). */
export const VirtualEntry = Type.Object(
  {
    tools: Type.Array(ToolSelection, { minItems: 1, maxItems: 1000, description: 'The tools this server offers, each drawn from another server.' }),
  },
  { additionalProperties: true },
);
export type VirtualEntry = Static<typeof VirtualEntry>;

export const VIRTUAL_TYPE = 'virtual';
