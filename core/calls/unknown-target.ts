import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';

/**
 * What a call answers instead of a result when the caller cannot have its server or tool
 * (unknown, kept out by a filter, beyond the caller's reach: all told alike, so nothing
 * beyond them is revealed). Worded here once for every road and every plugin: a plugin
 * adds its own hint after `message`, never its own words for "unknown".
 */
export interface UnknownTarget {
  readonly unknown: 'server' | 'tool';
  readonly server: string;
  readonly tool: string;
  readonly message: string;
}

/** What `servers.callTool` answers: the result as the caller's revision delivers it, or an unknown server or tool. */
export type ServerToolAnswer = CallToolResult | InputRequiredResult | UnknownTarget;

export function unknownServerMessage(server: string): string {
  return `Unknown server: "${server}".`;
}

export function unknownToolMessage(server: string, tool: string): string {
  return `Unknown tool: "${tool}" on server "${server}".`;
}

export function unknownServer(server: string, tool: string): UnknownTarget {
  return { unknown: 'server', server, tool, message: unknownServerMessage(server) };
}

export function unknownTool(server: string, tool: string): UnknownTarget {
  return { unknown: 'tool', server, tool, message: unknownToolMessage(server, tool) };
}

export function isUnknownTarget(answer: ServerToolAnswer): answer is UnknownTarget {
  return 'unknown' in answer && (answer.unknown === 'server' || answer.unknown === 'tool') && !('content' in answer);
}
