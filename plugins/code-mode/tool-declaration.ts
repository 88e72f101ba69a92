import type { Tool } from '@modelcontextprotocol/server';
import { docComment, typeOf } from './declarations.js';
import type { MetaToolContext, ServerView, ToolDeclarations } from '../../core/plugin/meta-tool.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * One tool's declaration, for a tool found by search (`search_tools` with `withCode`): its
 * description as a doc comment and its signature as a program calls it, the argument and
 * result types written inline, so that it reads alone, without the namespace, header and
 * `console` that `get_code_api` adds around a server's tools:
 *
 *     /** Echoes back the input *\/
 *     servers.everything.echo(args: {
 *       message: string;
 *     }): Promise<string>;
 */
export function toolDeclaration(server: string, tool: Tool, context: MetaToolContext): string {
  const presented = context.revision.presentTool(tool);
  const input = presented.inputSchema as { required?: unknown } | undefined;
  const argsOptional = !Array.isArray(input?.required) || input.required.length === 0;
  const output = presented.outputSchema === undefined ? 'string' : typeOf(presented.outputSchema);
  return `${docComment(presented.description ?? tool.description, '')}servers${member(server)}${member(tool.name)}(args${argsOptional ? '?' : ''}: ${typeOf(
    presented.inputSchema,
  )}): Promise<${output}>;\n`;
}

/** `.name`, or `["my-name"]` where a name is not an identifier, as a program writes it. */
function member(name: string): string {
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** What code mode provides on `hub.toolDeclarations`. */
export const toolDeclarations: ToolDeclarations = {
  declare: (server: ServerView, tool: Tool, context: MetaToolContext) => toolDeclaration(server.name, tool, context),
};
