import type { Client } from '@modelcontextprotocol/client';
import type { Test } from 'tap';
import { structuredMeta } from '../meta-tools/helpers.js';

export interface Found {
  server: string;
  tool: string;
  title: string;
  description: string;
  matched: string[];
  score: number;
  hasOutputSchema?: true;
  annotations?: Record<string, unknown>;
  /** With withCode and code mode on: the tool's declaration. */
  code?: string;
}

export interface SearchAnswer {
  tools: Found[];
  notSearchable?: { server: string; reason: string }[];
  notice?: string;
}

/** search_tools on `/hub`, checked to carry the same object as structuredContent and JSON text. */
export async function search(t: Test, client: Client, query: string, extra: { limit?: number; server?: string } = {}): Promise<SearchAnswer> {
  return (await structuredMeta(t, client, 'search_tools', { query, ...extra })) as unknown as SearchAnswer;
}

/** The hits as `server/tool`, best first. */
export const hits = (answer: SearchAnswer): string[] => answer.tools.map((tool) => `${tool.server}/${tool.tool}`);

/** search_tools without checks, for polling until the index follows a change. */
export async function searchQuietly(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'search_tools', arguments: { query } });
  return ((result.structuredContent as SearchAnswer | undefined)?.tools ?? []).map((tool) => `${tool.server}/${tool.tool}`);
}
