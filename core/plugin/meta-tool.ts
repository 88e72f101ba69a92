/**
 * `mcp-switchyard/plugin/meta-tool`: what a plugin that adds tools to `/hub` needs: the
 * tool contract, the servers as plugins see them, and tool results.
 */
export type { MetaTool, MetaToolContext, ToolDeclarations } from '../calls/meta-tool.js';
export { mayReach, type CallerRequest } from '../calls/caller-request.js';
export type { ServerView } from '../children/server-view.js';
/** Which servers and tools a caller may see and call: the decision `/hub`'s listing shares with every call (core/calls/visibility.ts). */
export { hubStanding, lookupTool, offeredOnHub, type HubStanding, type ToolLookup } from '../calls/visibility.js';
export { callerCapabilities, decideElicitation, type ElicitationDecision } from '../calls/elicitation.js';
export { structured, toolError } from '../calls/tool-results.js';
/** How `/hub`'s listings summarise a tool: its annotations' schema and the first line of its description. */
export { DESCRIPTION_LINE_MAX, descriptionLine, ToolAnnotationsSchema } from '../calls/tool-summary.js';
/** "Unknown server" and "unknown tool", worded once: what `servers.callTool` answers, and what a meta-tool says of a server or tool it cannot find. */
export { isUnknownTarget, unknownServerMessage, unknownToolMessage, type ServerToolAnswer, type UnknownTarget } from '../calls/unknown-target.js';
