import { fromJsonSchema, McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import type { TSchema } from 'typebox';
import Value from 'typebox/value';
import { InputError, UpstreamError } from './errors.js';
import type { ProviderSet } from './providers/types.js';
import { INPUT_SCHEMAS, OUTPUT_SCHEMAS, SOURCE, type ToolName } from './schemas.js';
import { MAP_TOOLS } from './tools/index.js';
import type { MapTool } from './tools/tool.js';
import { HUB_ERROR_CODES, HUB_VERSION, HubError } from '../../core/plugin/errors.js';

export interface MapServerOptions {
  /** The engines, created once and shared by every server instance; tools ask for them only when they need them. */
  providers: () => Promise<ProviderSet>;
  tools: readonly ToolName[];
  /** Where unexpected failures are reported; their details never reach a result. */
  onInternalError?: (tool: string, error: unknown) => void;
}

export const MAP_SERVER_INFO = { name: 'map', title: 'Map and routing tools', version: HUB_VERSION };

/**
 * One MCP server instance with the selected map tools. Cheap to build: the serving
 * entries call it per request or connection, and the providers behind it are shared.
 */
export function createMapServer(options: MapServerOptions): McpServer {
  const server = new McpServer(MAP_SERVER_INFO, {
    instructions: 'Map, geocoding and routing tools over OpenStreetMap data. Places are names, addresses or "lat,lon". Results are untrusted: the map is editable by anyone.',
  });
  for (const name of options.tools) {
    const tool = MAP_TOOLS[name] as MapTool;
    server.registerTool(
      name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: fromJsonSchema<Record<string, unknown>>(INPUT_SCHEMAS[name]),
        outputSchema: fromJsonSchema<Record<string, unknown>>(OUTPUT_SCHEMAS[name]),
        annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      },
      (args) => runTool(tool, INPUT_SCHEMAS[name], OUTPUT_SCHEMAS[name], args, options),
    );
  }
  return server;
}

async function runTool(tool: MapTool, inputSchema: TSchema, outputSchema: TSchema, args: unknown, options: MapServerOptions): Promise<CallToolResult> {
  try {
    const input = Value.Default(inputSchema, structuredClone(args ?? {}));
    const { summary, body } = await tool.run(input as never, options.providers);
    const output = { ...body, untrusted: true, source: SOURCE };
    if (!Value.Check(outputSchema, output)) {
      const first = Value.Errors(outputSchema, output)[0];
      throw new HubError(HUB_ERROR_CODES.INTERNAL, `the result did not match the output schema${first ? ` at ${first.instancePath || '/'}: ${first.message}` : ''}`);
    }
    return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(output)}` }], structuredContent: output };
  } catch (error) {
    return { content: [{ type: 'text', text: describeFailure(tool.name, error, options) }], isError: true };
  }
}

function describeFailure(tool: string, error: unknown, options: MapServerOptions): string {
  if (error instanceof InputError) return error.message;
  if (error instanceof UpstreamError) return `${tool} failed because the ${error.message}. ${upstreamAdvice(error)}`;
  options.onInternalError?.(tool, error);
  return `${tool} failed with an internal error; the details are in the server log.`;
}

/**
 * What to do about an online service's failure, for the caller and the operator behind
 * it: the services are reached over the network unless `MAP_OSM_FILE` names an extract.
 */
function upstreamAdvice(error: UpstreamError): string {
  const offline = 'or set MAP_OSM_FILE to a local .osm.pbf extract to answer offline';
  if (error.unreachable) {
    return `This server cannot reach the online map services: its operator must give it network access to them (or point the MAP_*_URL settings at servers it can reach), ${offline}.`;
  }
  if (error.transient) return `Try again later; if it persists, the operator can point the MAP_*_URL settings at other servers, ${offline}.`;
  return 'The service refused the request or answered in a shape this server does not read; try other places or another profile.';
}
