import type { Tool } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { RequestWake } from './request-wake.js';

/**
 * The proxy answers listing and calls from the Child's cache; a server never seen is
 * started by its first use. When that start fails the endpoint cannot know the tools, so
 * it says why instead of claiming there are none: a JSON-RPC error naming the server and
 * the cause.
 */
export async function knownTools(child: Child, wake?: RequestWake): Promise<Tool[]> {
  await toolsKnown(child, wake);
  await child.recheckWithheld();
  return child.tools;
}

/**
 * The tool a caller names, or why there is none for callers: `denied` for a name the
 * filter keeps out (refused without waking anything), `unknown` for one the server does
 * not list, `{ withheld }` with the reason of a tool gate that withholds it (its definition
 * awaits an operator's approval). With `askUnlisted` (the transparent proxy), a name the
 * server does not list is the server's to answer while it is up: a stand-in with an open
 * schema is returned. A server never seen is woken to learn its tools, within `wake` (the
 * request's one wait for it) when given; when that fails, the start's own error is thrown.
 */
export async function lookupTool(child: Child, name: string, { wake, askUnlisted = false }: { wake?: RequestWake | undefined; askUnlisted?: boolean } = {}): Promise<Tool | 'denied' | 'unknown' | { withheld: string }> {
  if (!child.isToolAllowed(name)) return 'denied';
  await (wake ? wake.known() : child.ensureToolsKnown());
  const listed = child.findTool(name) ?? (await child.recheckTool(name));
  if (typeof listed === 'string') return { withheld: listed };
  if (listed) return listed;
  return askUnlisted && child.status === 'up' ? { name, inputSchema: { type: 'object' } } : 'unknown';
}

async function toolsKnown(child: Child, wake: RequestWake | undefined): Promise<void> {
  if (wake) return wake.known();
  try {
    await child.ensureToolsKnown();
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, (error as Error).message);
  }
}
