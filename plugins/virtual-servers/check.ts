import type { ServerEntry } from '../../core/plugin/child-type.js';
import { VIRTUAL_TYPE, type ToolSelection } from './entry.js';

/** The name a selected tool takes on the virtual server. */
export function finalName(selection: ToolSelection, tool: string): string {
  return `${selection.prefix ?? ''}${selection.name ?? tool}`;
}

/**
 * What a virtual server's entry asks of the rest of the config, in an operator's words, or
 * undefined: every server it draws on exists (and is not itself), `name` renames one tool,
 * two tools named outright do not end with one name, and no virtual servers draw on one
 * another in a circle. Names that come from `*` are known only once the tool lists are: a
 * clash among them is said in the log and the later one left out (see compose.ts).
 */
export function checkAgainst(name: string, entry: ServerEntry, servers: ReadonlyMap<string, ServerEntry>): string | undefined {
  const selections = selectionsOf(entry);
  const finals = new Map<string, number>();
  for (const [index, selection] of selections.entries()) {
    const where = `tools[${index}]`;
    if (selection.server === name) return `${where}: a virtual server cannot draw on itself`;
    if (!servers.has(selection.server)) return `${where}: unknown server "${selection.server}" (not in the config, or disabled)`;
    if (selection.tool === '*') {
      if (selection.name !== undefined) return `${where}: "name" renames one tool; for "tool": "*" use "prefix"`;
      continue;
    }
    const final = finalName(selection, selection.tool);
    const earlier = finals.get(final);
    if (earlier !== undefined) return `${where}: two tools would be named "${final}" (tools[${earlier}] and ${where})`;
    finals.set(final, index);
  }
  const circle = circleFrom(name, servers);
  return circle ? `virtual servers draw on one another in a circle: ${circle.join(' -> ')}` : undefined;
}

/** The selections of an entry; an entry whose `tools` its schema has not checked yet (it names an unset variable) has none here. */
export function selectionsOf(entry: ServerEntry): ToolSelection[] {
  const tools = (entry as { tools?: unknown }).tools;
  return Array.isArray(tools) ? (tools as ToolSelection[]).filter((selection) => typeof selection?.server === 'string' && typeof selection.tool === 'string') : [];
}

/** A path of virtual servers from `start` back to itself, if there is one. */
function circleFrom(start: string, servers: ReadonlyMap<string, ServerEntry>): string[] | undefined {
  const visit = (name: string, path: string[], seen: Set<string>): string[] | undefined => {
    const entry = servers.get(name);
    if (entry?.type !== VIRTUAL_TYPE) return undefined;
    for (const next of new Set(selectionsOf(entry).map((selection) => selection.server))) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = visit(next, [...path, next], seen);
      if (found) return found;
    }
    return undefined;
  };
  return visit(start, [start], new Set([start]));
}

/** What `hub check` says of a virtual server: the servers and tools it draws on. */
export function describeDraws(entry: ServerEntry): string {
  const byServer = new Map<string, string[]>();
  for (const selection of selectionsOf(entry)) {
    const shown = selection.tool === '*' ? (selection.prefix ? `* as ${selection.prefix}*` : '*') : selection.tool === finalName(selection, selection.tool) ? selection.tool : `${selection.tool} as ${finalName(selection, selection.tool)}`;
    byServer.set(selection.server, [...(byServer.get(selection.server) ?? []), shown]);
  }
  return `draws on ${[...byServer].map(([server, tools]) => `${server} (${tools.join(', ')})`).join(', ')}`;
}
