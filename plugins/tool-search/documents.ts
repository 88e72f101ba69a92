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
  /** The description's first sentence: what the tool is for, before the details of how to call it. */
  summary: string;
  description: string;
  /** The input schema's property names and their descriptions. */
  params: string;
  /** The server's name, title and instructions: a weaker field, so that "github" finds the GitHub server's tools. */
  about: string;
}

const MAX_FIELD_CHARS = 4_000;
const MAX_PARAMS = 64;

export const FIELDS = ['name', 'title', 'summary', 'description', 'params', 'about'] as const;

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
    summary: summary(tool.description ?? ''),
    description: bounded(tool.description ?? ''),
    params: bounded(paramsText(tool.inputSchema)),
    about,
  };
}

function paramsText(schema: Tool['inputSchema']): string {
  // A child's JSON may hold null where the type says an object.
  const properties = schema.properties as Tool['inputSchema']['properties'] | null;
  if (typeof properties !== 'object' || properties === null) return '';
  return Object.entries(properties)
    .slice(0, MAX_PARAMS)
    .map(([name, property]) => {
      const description = typeof property === 'object' && property !== null && 'description' in property && typeof property.description === 'string' ? property.description : '';
      return `${name} ${description}`;
    })
    .join('\n');
}

const MAX_SUMMARY_CHARS = 240;

/** The first sentence (up to a full stop, a line break or 240 characters), skipping a description's leading decoration ("🎯 Purpose:"). */
function summary(description: string): string {
  const text = description.replace(/^[^\p{L}\p{N}]*(purpose|description)?[:\s]*(1\.\s*)?/iu, '').slice(0, MAX_SUMMARY_CHARS);
  const end = text.search(/[.!?](\s|$)|\n/);
  return end < 0 ? text : text.slice(0, end);
}

function bounded(text: string): string {
  return text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
}
