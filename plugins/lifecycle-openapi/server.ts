import { Server, type CallToolResult, type Implementation } from '@modelcontextprotocol/server';
import { unknownToolProtocolError } from '../../core/plugin/child-type.js';
import type { Ajv2020 as Ajv, ValidateFunction } from 'ajv/dist/2020.js';
import type { ApiClient } from './api-client.js';
import { cut } from './answer.js';
import { ArgumentProblem, planRequest } from './request.js';
import type { OperationTool } from './tools.js';

export interface ApiServerParts {
  info: Implementation;
  instructions: string | undefined;
  tools: OperationTool[];
  api: ApiClient;
  headers: Record<string, string>;
  ajv: Ajv;
}

/**
 * The MCP server of one REST API: a factory for the SDK's handler, which builds a server
 * per session or request; the tool list, the compiled schemas and the connections are
 * made once and shared by all of them.
 */
export function apiServerFactory(parts: ApiServerParts): () => Server {
  const byName = new Map(parts.tools.map((planned) => [planned.tool.name, planned]));
  const list = { tools: parts.tools.map((planned) => planned.tool) };
  const inputs = new Map<string, ValidateFunction>();
  const inputValidator = (planned: OperationTool): ValidateFunction => {
    let validate = inputs.get(planned.tool.name);
    if (!validate) inputs.set(planned.tool.name, (validate = compiledOrLenient(parts.ajv, planned.tool.inputSchema)));
    return validate;
  };
  return () => {
    const server = new Server(parts.info, { capabilities: { tools: {} }, ...(parts.instructions !== undefined && { instructions: parts.instructions }) });
    server.setRequestHandler('tools/list', async () => list);
    server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
      const planned = byName.get(request.params.name);
      if (!planned) throw unknownToolProtocolError(request.params.name);
      const args = request.params.arguments ?? {};
      const validate = inputValidator(planned);
      if (!validate(args)) {
        const first = validate.errors?.[0];
        return problem(`${planned.tool.name}: the arguments do not match its input schema${first ? ` (at ${first.instancePath || '/'}: ${first.message ?? 'invalid'})` : ''}`);
      }
      let outgoing;
      try {
        outgoing = planRequest(planned, args, parts.headers);
      } catch (error) {
        if (error instanceof ArgumentProblem) return problem(`${planned.tool.name}: ${error.message}`);
        throw error;
      }
      return parts.api.call(planned, outgoing, ctx.mcpReq.signal);
    });
    return server;
  };
}

/**
 * A document's schema that ajv cannot compile (a pattern in another regex dialect) checks
 * nothing here: the API stays the judge of its inputs, and the tool stays callable.
 */
export function compiledOrLenient(ajv: Ajv, schema: object): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch {
    return ajv.compile({});
  }
}

function problem(text: string): CallToolResult {
  return { content: [{ type: 'text', text: cut(text, 2000) }], isError: true };
}
