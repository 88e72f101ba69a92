import type { Tool } from '@modelcontextprotocol/server';
import type { ServerView } from '../../core/plugin/meta-tool.js';

/**
 * What one tool is indexed as. A server's text is bounded: the tool list comes from the
 * server, and a description of megabytes must not make the index grow with it.
 */
export interface ToolDocument {
  id: string;
  server: string;
  tool: string;
  /** The tool's name (split into words by the tokenizer). */
  name: string;
  title: string;
  description: string;
  /** The input schema's property names and their descriptions. */
  params: string;
  /** The server's name, title and instructions: a weaker field, so that "github" finds the GitHub server's tools. */
  about: string;
}

const MAX_FIELD_CHARS = 4_000;
const MAX_PARAMS = 64;

export const FIELDS = ['name', 'title', 'description', 'params', 'about'] as const;

/** The id of a tool's document: the server and tool names, which contain no NUL. */
function documentId(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/** What a server says about itself, once for all its tools. */
export function aboutServer(server: ServerView): string {
  const info = server.serverInfo;
  return bounded([server.name, server.description, info?.name, info?.title, server.instructions].filter((part) => typeof part === 'string').join('\n'));
}

export function toolDocument(server: string, about: string, tool: Tool): ToolDocument {
  return {
    id: documentId(server, tool.name),
    server,
    tool: tool.name,
    name: tool.name,
    title: bounded([tool.title, tool.annotations?.title].filter((part) => typeof part === 'string').join('\n')),
    description: bounded(tool.description ?? ''),
    params: bounded(paramsText(tool.inputSchema)),
    about,
  };
}

function paramsText(schema: Tool['inputSchema']): string {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return '';
  return Object.entries(properties)
    .slice(0, MAX_PARAMS)
    .map(([name, property]) => {
      const description = typeof property === 'object' && property !== null && 'description' in property && typeof property.description === 'string' ? property.description : '';
      return `${name} ${description}`;
    })
    .join('\n');
}

function bounded(text: string): string {
  return text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
}
