import { Type, type Static } from 'typebox';

/** A tool name as MCP allows it (SEP-986): what `name` and a prefixed name must stay within. */
const TOOL_NAME = '^[A-Za-z0-9_.-]{1,128}$';

/** One selection of a virtual server: a tool of another server (or all of them, `*`), renamed or described anew. */
export const ToolSelection = Type.Object(
  {
    server: Type.String({ minLength: 1, description: 'The server the tool is drawn from: a server of the config (a virtual one too, without a circle).' }),
    tool: Type.String({ minLength: 1, description: 'The tool\'s name on that server, or "*" for every tool it offers callers.' }),
    name: Type.Optional(Type.String({ pattern: TOOL_NAME, description: 'The name the tool takes here (one tool only, not with "*"); a renamed tool loses its own title unless `title` gives one.' })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'The title (display name) the tool takes here (one tool only, not with "*").' })),
    prefix: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'Put before the name of every tool selected (and before `name`).' })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Replaces the tool's description." })),
  },
  { additionalProperties: false },
);
export type ToolSelection = Static<typeof ToolSelection>;

/** One prompt selection: a prompt of another server (or all of them, `*`), renamed or described anew, as a tool is. */
export const PromptSelection = Type.Object(
  {
    server: Type.String({ minLength: 1, description: 'The server the prompt is drawn from (a virtual one too, without a circle).' }),
    prompt: Type.String({ minLength: 1, description: 'The prompt\'s name on that server, or "*" for every prompt it lists.' }),
    name: Type.Optional(
      Type.String({ pattern: TOOL_NAME, description: 'The name the prompt takes here (one prompt only, not with "*"); a renamed prompt loses its own title unless `title` gives one.' }),
    ),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'The title (display name) the prompt takes here (one prompt only, not with "*").' })),
    prefix: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'Put before the name of every prompt selected (and before `name`).' })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Replaces the prompt's description." })),
  },
  { additionalProperties: false },
);
export type PromptSelection = Static<typeof PromptSelection>;

/**
 * One resource selection: a resource of another server by its URI (or all it lists, `*`).
 * The URI stays the underlying server's (a caller reads it by that URI); `name`, `prefix`
 * and `description` change what the listing shows.
 */
export const ResourceSelection = Type.Object(
  {
    server: Type.String({ minLength: 1, description: 'The server the resource is drawn from (a virtual one too, without a circle).' }),
    resource: Type.String({ minLength: 1, maxLength: 2048, description: 'The resource\'s URI on that server, or "*" for every resource it lists.' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'The name the resource is listed under here (one resource only, not with "*").' })),
    prefix: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'Put before the listed name of every resource selected (and before `name`).' })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Replaces the resource's description." })),
  },
  { additionalProperties: false },
);
export type ResourceSelection = Static<typeof ResourceSelection>;

/** The keys of a `virtual` server entry, beside the hub's own (`allowTools`, `hub`, ...). */
export const VirtualEntry = Type.Object(
  {
    tools: Type.Array(ToolSelection, { minItems: 1, maxItems: 1000, description: 'The tools this server offers, each drawn from another server.' }),
    prompts: Type.Optional(Type.Array(PromptSelection, { minItems: 1, maxItems: 1000, description: 'The prompts this server offers, each drawn from another server.' })),
    resources: Type.Optional(Type.Array(ResourceSelection, { minItems: 1, maxItems: 1000, description: 'The resources this server offers, each drawn from another server by URI.' })),
  },
  { additionalProperties: true },
);
export type VirtualEntry = Static<typeof VirtualEntry>;

export const VIRTUAL_TYPE = 'virtual';
