import { findHubServer, findTool, unknownToolError } from './lookup.js';
import { ToolInput, ToolSchemaOutput } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { type MetaTool, structured } from '../../core/plugin/meta-tool.js';

/**
 * One tool's full record from the cached list. The output schema is the one `call_tool`
 * delivers on the caller's revision (wrapped under `result` on 2025-11-25 when the
 * child's is not an object), so schema and result always agree.
 */
export function getToolSchema(hub: PluginHub): MetaTool {
  return {
    name: 'get_tool_schema',
    description: "Returns one tool's full description, input schema (the shape of call_tool's arguments), output schema and annotations. Call it before call_tool unless you already know the schema.",
    inputSchema: ToolInput,
    outputSchema: ToolSchemaOutput,
    annotations: { title: 'Get tool schema', readOnlyHint: true },
    async call(args, context) {
      const { server, tool: name } = args as ToolInput;
      const found = findHubServer(hub, server, context.request);
      if (!found.ok) return found.error;
      const tool = await findTool(found.value, name, 'Could not read the tool list: ');
      if (!tool.ok) return tool.error;
      if (!(await found.value.toolsShownTo(context.revision.revision)).some((shown) => shown.name === name)) return unknownToolError(found.value, name);
      const { description, inputSchema, outputSchema, annotations } = context.revision.presentTool(tool.value);
      return structured({
        server: found.value.name,
        name,
        description: description ?? '',
        inputSchema,
        ...(outputSchema !== undefined && { outputSchema }),
        ...(annotations !== undefined && { annotations }),
      } satisfies ToolSchemaOutput);
    },
  };
}
