import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolRequestParams,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import type { Child } from '../children/child.js';
import type { Hub } from '../hub.js';
import { withValidTraceContext } from '../observe.js';
import { callerRequestOf, type CallerRequest } from './caller-request.js';
import type { McpEndpoint } from './endpoint.js';
import { callerCapabilities, decideElicitation, type ElicitationDecision } from './elicitation.js';
import { forwardToolCall, withQuestionParams } from './forward-call.js';
import { findKnownTool, knownTools } from './known-tools.js';
import type { ServedRevision } from './served-revision.js';
import { toolError } from './tool-results.js';

/**
 * `/<name>/mcp`: a transparent proxy of tools, resources, prompts and completion to one
 * child, stating the child's own identity and instructions, with the allow/deny filter
 * applied and the revision's differences left to the revision. Listing reads the Child,
 * never the wire.
 */
export class ChildEndpoint implements McpEndpoint {
  constructor(
    private readonly hub: Hub,
    readonly child: Child,
  ) {}

  server(revision: ServedRevision): Promise<Server> {
    return createChildServer(this.hub, this.child, revision);
  }

  /**
   * The child's own identity, as it last stated it (kept in its snapshot while it sleeps);
   * before it was ever seen, its configured name.
   */
  identity(): Implementation {
    return this.child.serverInfo ?? { name: this.child.name, version: this.hub.version };
  }

  /** A call as the revision delivers it; undefined for an unknown or filtered tool; a tool error for one a tool gate withholds. */
  async callTool(revision: ServedRevision, params: CallToolRequestParams, caller: CallerRequest): Promise<CallToolResult | InputRequiredResult | undefined> {
    const tool = await findKnownTool(this.child, params.name);
    if (!tool) return undefined;
    if (typeof tool === 'string') return toolError(tool);
    return forwardToolCall(this.hub, this.child, tool, params, { revision, request: caller });
  }
}

/** A child never seen (no snapshot) is woken first, so the endpoint offers what the child offers. */
async function createChildServer(hub: Hub, child: Child, revision: ServedRevision): Promise<Server> {
  const endpoint = new ChildEndpoint(hub, child);
  if (child.capabilities === undefined) await child.ensureToolsKnown().catch(() => undefined);
  const known = child.capabilities;
  const server = new Server(endpoint.identity(), {
    capabilities: revision.capabilities(known),
    ...(child.instructions !== undefined && { instructions: child.instructions }),
    ...revision.serverOptions,
  });

  server.setRequestHandler('tools/list', async () => ({ tools: (await knownTools(child)).map((tool) => revision.presentTool(tool)) }));

  server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const result = await endpoint.callTool(revision, request.params, callerRequestOf(revision, ctx));
    // A filtered tool gets the answer of one that never existed, before anything wakes.
    if (!result) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return result;
  });

  const relay = relayTo(hub, child, revision);
  if (known?.resources) {
    server.setRequestHandler('resources/list', (request, ctx) => relay(ctx, request.params, (client, params, options) => client.listResources(params, options)));
    server.setRequestHandler('resources/templates/list', (request, ctx) => relay(ctx, request.params, (client, params, options) => client.listResourceTemplates(params, options)));
    server.setRequestHandler('resources/read', (request, ctx) => relay(ctx, request.params, (client, params, options) => client.readResource(params, options)));
  }
  if (known?.prompts) {
    server.setRequestHandler('prompts/list', (request, ctx) => relay(ctx, request.params, (client, params, options) => client.listPrompts(params, options)));
    server.setRequestHandler('prompts/get', (request, ctx) => relay(ctx, request.params, (client, params, options) => client.getPrompt(params, options)));
  }
  if (known?.completions) {
    server.setRequestHandler('completion/complete', (request, ctx) => relay(ctx, request.params, (client, params, options) => client.complete(params, options)));
  }
  return server;
}

type Send<P, R> = (client: Client, params: P, options: RequestOptions) => Promise<R>;

/**
 * Relays a request other than a tool call: the child woken, the caller's cancellation
 * passed on, the child's identity dropped from its answer, and a child's question
 * relayed by the same decision as a tool call's. One that cannot be forwarded fails the
 * request, since there is no tool result to tell it in.
 */
function relayTo(hub: Hub, child: Child, revision: ServedRevision) {
  return async <P extends { _meta?: Record<string, unknown> } | undefined, R extends { _meta?: Record<string, unknown> }>(
    ctx: ServerContext,
    params: P,
    send: Send<P, R>,
  ): Promise<R> => {
    const request = callerRequestOf(revision, ctx);
    const capabilities = callerCapabilities(request);
    let decision: ElicitationDecision | undefined;
    const answer = await child.withClient((client) => {
      decision = decideElicitation(revision, capabilities, child.view);
      const asked = (params === undefined ? params : withQuestionParams(withValidTraceContext(params), request, decision, capabilities)) as P;
      return send(client, asked, { signal: request.signal, allowInputRequired: true });
    });
    if (!isInputRequiredResult(answer)) return child.wire?.withoutIdentity(answer) ?? answer;
    const question = hub.questions.relay(answer, revision, decision as ElicitationDecision, request, child.view);
    if (typeof question === 'string') throw new ProtocolError(ProtocolErrorCode.InternalError, question);
    return question as unknown as R;
  };
}
