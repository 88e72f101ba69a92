import { isInputRequiredResult, Server, type CallToolRequestParams, type CallToolResult, type ClientCapabilities, type Implementation, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { SdkExchange } from './sdk-exchange.js';
import { firstSchemaProblem, pointerToPath, withSchemaDefaults } from '../config/schema-errors.js';
import type { Hub } from '../hub.js';
import { observe, type ToolCallOutcome } from '../observe.js';
import { callerRequestOf, type CallerRequest } from '../calls/caller-request.js';
import { callEndpointTool, type McpEndpoint } from './endpoint.js';
import { answeredOutcome, errorCodeOf } from '../calls/observation.js';
import type { HubCallRecord } from '../calls/tool-call.js';
import type { ServedRevision } from '../revisions/served-revision.js';
import { toolError } from '../calls/tool-results.js';

/**
 * `/hub` (and `hub-stdio`): whatever meta-tools the plugins registered. Tool schemas are
 * TypeBox, so they are advertised as they are and arguments are checked with the same
 * schema before a tool runs.
 */
export class HubEndpoint implements McpEndpoint {
  constructor(
    private readonly hub: Hub,
    /** The SDK server of a stdio session, whose opening declared the caller's capabilities. */
    private readonly session?: Server,
  ) {}

  server(revision: ServedRevision, exchange?: SdkExchange): Server {
    return createHubServer(this.hub, revision, exchange);
  }

  identity(): Implementation {
    return { name: 'mcp-hub', title: 'MCP hub', version: this.hub.version };
  }

  callTool(revision: ServedRevision, params: CallToolRequestParams, caller: CallerRequest): Promise<CallToolResult | InputRequiredResult | undefined> {
    const sessionCapabilities = this.session?.getClientCapabilities();
    return callHubTool({ hub: this.hub, revision, params, caller, ...(sessionCapabilities && { sessionCapabilities }) });
  }
}

function createHubServer(hub: Hub, revision: ServedRevision, exchange: SdkExchange | undefined): Server {
  const server = new Server(new HubEndpoint(hub).identity(), {
    capabilities: { tools: {} },
    // The meta-tools are fixed for the life of the process and the same for every caller.
    cacheHints: { 'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' } },
    instructions: 'Start with list_servers, then list_tools(server), then get_tool_schema(server, tool), then call_tool.',
    ...revision.serverOptions,
  });

  server.setRequestHandler('tools/list', async () => ({
    tools: hub.metaTools.values().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
      ...(tool.outputSchema && { outputSchema: tool.outputSchema as { type: 'object' } }),
      ...(tool.annotations && { annotations: tool.annotations }),
    })),
  }));

  const endpoint = new HubEndpoint(hub, server);
  server.setRequestHandler('tools/call', async (request, ctx) => callEndpointTool(endpoint, revision, request.params, callerRequestOf(revision, ctx, exchange)));
  return server;
}

/** A call to one of /hub's tools, from a caller on `revision`. */
interface HubToolCall {
  hub: Hub;
  revision: ServedRevision;
  params: CallToolRequestParams;
  caller: CallerRequest;
  /** What the caller's session declared, where the road has a session. */
  sessionCapabilities?: ClientCapabilities;
}

/**
 * A meta-tool call, heard by observers (`hubToolCall`) with its outcome unless it reached
 * a configured server (`call_tool` naming one), which they heard as that server's call.
 */
function callHubTool(call: HubToolCall): Promise<CallToolResult | InputRequiredResult | undefined> {
  const observed = observe.hubToolCall.active;
  const startedAt = observed ? performance.now() : 0;
  const record: HubCallRecord | undefined = observed ? { heardAsServerCall: false } : undefined;
  // Not async (an async frame less on every call through `/hub`): a meta-tool that throws at once is a rejection all the same.
  let running: Promise<CallToolResult | InputRequiredResult | undefined>;
  try {
    running = runHubTool(call, record);
  } catch (error) {
    running = Promise.reject(error);
  }
  if (!record) return running;
  return running.then(
    (result) => {
      heardAsHubCall(call, record, startedAt, result === undefined ? 'unknown_tool' : answeredOutcome(result), undefined);
      return result;
    },
    (error: unknown) => {
      heardAsHubCall(call, record, startedAt, 'protocol_error', errorCodeOf(error));
      throw error;
    },
  );
}

/** Observers hear a meta-tool call that did not reach a configured server (they heard that as the server's call). */
function heardAsHubCall({ hub, revision, params, caller }: HubToolCall, record: HubCallRecord, startedAt: number, outcome: ToolCallOutcome, errorCode: number | string | undefined): void {
  if (record.heardAsServerCall) return;
  observe.hubToolCall.publish({
    hub: hub.identity,
    tool: params.name,
    revision: revision.revision,
    clientId: caller.clientId,
    params,
    request: caller,
    startedAt,
    endedAt: performance.now(),
    outcome,
    errorCode,
  });
}

/**
 * A meta-tool call: the schema's defaults filled in and the arguments checked against it
 * before the tool runs. Undefined for a tool no plugin registered.
 */
// Not async: the tool's own promise is handed on as it is (an async frame less on every call
// through `/hub`); `callHubTool` turns a throw into a rejection.
function runHubTool({ hub, revision, params, caller, sessionCapabilities }: HubToolCall, hubCall?: HubCallRecord): Promise<CallToolResult | InputRequiredResult | undefined> {
  const tool = hub.metaTools.get(params.name);
  if (!tool) return Promise.resolve(undefined);
  const args = withSchemaDefaults(tool.inputSchema, params.arguments ?? {}) as Record<string, unknown>;
  const problem = firstSchemaProblem(tool.inputSchema, args);
  if (problem) {
    const path = pointerToPath(problem.path);
    return Promise.resolve(toolError(`Invalid arguments for ${tool.name}: ${path ? `"${path}"` : 'arguments'}: expected ${problem.expected}`));
  }
  const called = tool.call(args, { revision, request: caller, via: tool.name, ...(hubCall && { hubCall }), ...(sessionCapabilities && { sessionCapabilities }) });
  if (!tool.interceptedResult) return called;
  return called.then<CallToolResult | InputRequiredResult>((result) =>
    isInputRequiredResult(result) ? result : hub.interceptors.runAfterHubTool(hub, { tool: tool.name, revision: revision.revision, clientId: caller.clientId }, result),
  );
}
