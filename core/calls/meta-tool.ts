import type { CallToolResult, ClientCapabilities, InputRequiredResult, Tool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { TSchema } from 'typebox';
import type { HubCallRecord } from './tool-call.js';
import type { CallerRequest } from './caller-request.js';
import type { ServedRevision } from '../revisions/served-revision.js';
import type { ServerView } from '../children/server-view.js';

/** What a meta-tool learns about the request it serves. */
export interface MetaToolContext {
  /** The revision the caller speaks. */
  revision: ServedRevision;
  /** The caller's request: progress, cancellation, the request's `_meta`. */
  request: CallerRequest;
  /** What a stdio session declared when it opened; on revisions with per-request capabilities they travel in `request`. */
  sessionCapabilities?: ClientCapabilities;
  /**
   * What makes the server's tool calls made with this context (`servers.callTool`): the
   * meta-tool's name by default, recorded in the access record (`via`). A plugin that
   * calls tools on behalf of a caller in other terms (a program it runs) may name itself.
   */
  via?: string;
  /** The `/hub` call this context serves: told when a server's call was heard by observers, so it is heard once. */
  hubCall?: HubCallRecord;
}

/** A tool of `/hub`; the meta-tools and diagnostics plugins register these. */
export interface MetaTool {
  name: string;
  description: string;
  inputSchema: TSchema;
  outputSchema?: TSchema;
  annotations?: ToolAnnotations;
  /**
   * Its answer carries what tools returned into the caller's model (code mode's
   * `run_code`): interceptors act on it (`ToolCallInterceptor.afterHubTool`), as on a
   * tool's result.
   */
  interceptedResult?: boolean;
  /** `args` has been checked against `inputSchema`. */
  call(args: Record<string, unknown>, context: MetaToolContext): Promise<CallToolResult | InputRequiredResult>;
}

/**
 * How a program calls a tool (code mode provides it): a meta-tool that finds tools
 * (tool-search's `search_tools` with `withCode`) hands out a found tool's declaration
 * without either plugin importing the other.
 */
export interface ToolDeclarations {
  /**
   * The declaration of `tool` of `server` as a program calls it, typed as the caller's
   * revision delivers it (`context.revision`); undefined when there is none to give (the
   * provider failed: the hub counts that as the provider's fault).
   */
  declare(server: ServerView, tool: Tool, context: MetaToolContext): string | undefined;
}
