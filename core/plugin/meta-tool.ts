/**
 * `mcp-switchyard/plugin/meta-tool`: what a plugin that adds tools to `/hub` needs: the
 * tool contract, the servers as plugins see them, and tool results.
 */
export type { MetaTool, MetaToolContext } from '../mcp/meta-tool.js';
export { mayReach, type CallerRequest } from '../mcp/caller-request.js';
export type { ServerView } from '../children/server-view.js';
export { callerCapabilities, decideElicitation, type ElicitationDecision } from '../mcp/elicitation.js';
export { structured, toolError } from '../mcp/tool-results.js';
