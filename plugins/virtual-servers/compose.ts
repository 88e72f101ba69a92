import type { Tool } from '@modelcontextprotocol/server';
import type { ServerView, Servers, ToolRoute } from '../../core/plugin/index.js';
import { finalName, selectionsOf, titled } from './check.js';
import type { VirtualEntry } from './entry.js';

/** A virtual server's tools as callers see them, and where each one's calls go. */
export interface Composition {
  tools: Tool[];
  routes: Map<string, ToolRoute>;
}

/**
 * The virtual server's tools, from what the hub knows of the servers it draws on (their
 * tool lists, from a snapshot while they sleep): nothing is woken. A tool the entry names
 * of a server never seen is listed from the entry (`namedOnly`); its call wakes the server. Each selected tool keeps
 * its schemas and annotations, under its new name, title and description. A tool the underlying
 * server does not offer (any more), and a name a `*` would give a second time, are left out
 * and told to `problem` (which says each once).
 */
export function compose(
  name: string,
  entry: VirtualEntry,
  servers: Pick<Servers, 'get'>,
  problem: (message: string) => void,
  /** The tools a server shows the kit's callers: by default what it lists on the revision spoken with it. */
  toolsOf: (view: ServerView) => readonly Tool[] = (view) => view.tools,
): Composition {
  const tools: Tool[] = [];
  const routes = new Map<string, ToolRoute>();
  for (const [index, selection] of selectionsOf(entry).entries()) {
    const view = servers.get(selection.server);
    if (!view) {
      problem(`virtual server "${name}": tools[${index}]: server "${selection.server}" is not configured (any more): left out`);
      continue;
    }
    // A server that never ran: a tool the entry names is listed from the entry, and its call wakes the server.
    const offered = !view.toolsKnown && selection.tool !== '*' ? [namedOnly(selection.tool, selection.server)] : toolsOf(view);
    for (const tool of selected(offered, selection.tool)) {
      const final = finalName(selection, tool.name);
      if (routes.has(final)) {
        problem(`virtual server "${name}": tools[${index}]: a second tool would be named "${final}" (${selection.server}/${tool.name}): left out`);
        continue;
      }
      routes.set(final, { server: view.name, tool: tool.name });
      tools.push({ ...titled(tool, selection), name: final, ...(selection.description !== undefined && { description: selection.description }) });
    }
    if (selection.tool !== '*' && view.toolsKnown && !offered.some((tool) => tool.name === selection.tool)) {
      problem(`virtual server "${name}": tools[${index}]: server "${selection.server}" offers no tool "${selection.tool}" (any more): left out`);
    }
  }
  return { tools, routes };
}

/**
 * A tool the entry names, of a server never seen: listed with what the entry says (its
 * name, title, description) until the server has run, when the kit composes again from its
 * own definition. Any arguments are taken; the server checks them.
 */
function namedOnly(tool: string, server: string): Tool {
  return { name: tool, description: `Tool "${tool}" of server "${server}", which has not run yet: its own description and schema are listed once it has.`, inputSchema: { type: 'object' } };
}

function selected(offered: readonly Tool[], tool: string): readonly Tool[] {
  if (tool === '*') return offered;
  return offered.filter((candidate) => candidate.name === tool);
}
