import type { ServerEntry } from '../../core/plugin/child-type.js';
import { VIRTUAL_TYPE, type PromptSelection, type ResourceSelection, type ToolSelection } from './entry.js';

/** The name a selected tool (or prompt) takes on the virtual server. */
export function finalName(selection: { name?: string; prefix?: string }, original: string): string {
  return `${selection.prefix ?? ''}${selection.name ?? original}`;
}

/**
 * A selected tool (or prompt) as titled on the virtual server: the entry's `title`; else,
 * when `name` renames it, no title of its own (the member's names the old one, and a UI
 * shows a title before the name); else its own.
 */
export function titled<T extends { title?: string; annotations?: { title?: string } }>(item: T, selection: { name?: string; title?: string }): T {
  if (selection.title === undefined && selection.name === undefined) return item;
  const { title: _own, ...rest } = item;
  const shown = { ...rest, ...(selection.title !== undefined && { title: selection.title }) } as T;
  if (item.annotations?.title === undefined) return shown;
  const { title: _annotated, ...annotations } = item.annotations;
  return { ...shown, annotations };
}

/** The kinds a virtual server draws, and the key of an entry that names what it selects. */
const KINDS = [
  { kind: 'tools', key: 'tool' },
  { kind: 'prompts', key: 'prompt' },
  { kind: 'resources', key: 'resource' },
] as const;
type Kind = (typeof KINDS)[number]['kind'];

/** One selection of any kind, as the checks read it. */
interface Draw {
  kind: Kind;
  index: number;
  server: string;
  /** The tool's or prompt's name, or the resource's URI; `*` for all. */
  item: string;
  name: string | undefined;
  title: string | undefined;
  prefix: string | undefined;
}

/**
 * What a virtual server's entry asks of the rest of the config, in an operator's words, or
 * undefined: every server it draws on exists (and is not itself), `name` renames one
 * item, two tools (or prompts) named outright do not end with one name, two resource
 * entries do not name one URI, and no virtual servers draw on one another in a circle.
 * Names that come from `*` are known only once the lists are: a clash among them is said
 * in the log and the later one left out (see compose.ts, catalog.ts).
 */
export function checkAgainst(name: string, entry: ServerEntry, servers: ReadonlyMap<string, ServerEntry>): string | undefined {
  const finals = new Map<string, string>();
  for (const draw of drawsOf(entry)) {
    const where = `${draw.kind}[${draw.index}]`;
    if (draw.server === name) return `${where}: a virtual server cannot draw on itself`;
    if (!servers.has(draw.server)) return `${where}: unknown server "${draw.server}" (not in the config, or disabled)`;
    if (draw.item === '*') {
      if (draw.name !== undefined) return `${where}: "name" renames one ${draw.kind.slice(0, -1)}; for "${KINDS.find((kind) => kind.kind === draw.kind)?.key}": "*" use "prefix"`;
      if (draw.title !== undefined) return `${where}: "title" titles one ${draw.kind.slice(0, -1)}, not "*"`;
      continue;
    }
    // A resource keeps its URI (callers read it by that URI): two entries of one URI would be one resource.
    const final = draw.kind === 'resources' ? draw.item : finalName(draw, draw.item);
    const key = `${draw.kind}\n${final}`;
    const earlier = finals.get(key);
    if (earlier !== undefined)
      return draw.kind === 'resources' ? `${where}: two entries select the URI "${final}" (${earlier} and ${where})` : `${where}: two ${draw.kind} would be named "${final}" (${earlier} and ${where})`;
    finals.set(key, where);
  }
  const circle = circleFrom(name, servers);
  return circle ? `virtual servers draw on one another in a circle: ${circle.join(' -> ')}` : undefined;
}

/** The tool selections of an entry; an entry whose `tools` its schema has not checked yet (it names an unset variable) has none here. */
export function selectionsOf(entry: ServerEntry): ToolSelection[] {
  return listOf(entry, 'tools', 'tool') as ToolSelection[];
}

export function promptSelectionsOf(entry: ServerEntry): PromptSelection[] {
  return listOf(entry, 'prompts', 'prompt') as PromptSelection[];
}

export function resourceSelectionsOf(entry: ServerEntry): ResourceSelection[] {
  return listOf(entry, 'resources', 'resource') as ResourceSelection[];
}

/** Every server an entry draws on, whatever it draws. */
export function drawnServers(entry: ServerEntry): Set<string> {
  return new Set(drawsOf(entry).map((draw) => draw.server));
}

function listOf(entry: ServerEntry, kind: Kind, key: string): Array<Record<string, unknown>> {
  const list = (entry as Record<string, unknown>)[kind];
  return Array.isArray(list)
    ? (list as Array<Record<string, unknown> | null>).filter((selection): selection is Record<string, unknown> => typeof selection?.server === 'string' && typeof selection[key] === 'string')
    : [];
}

function drawsOf(entry: ServerEntry): Draw[] {
  return KINDS.flatMap(({ kind, key }) =>
    listOf(entry, kind, key).map((selection, index) => ({
      kind,
      index,
      server: selection.server as string,
      item: selection[key] as string,
      name: typeof selection.name === 'string' ? selection.name : undefined,
      title: typeof selection.title === 'string' ? selection.title : undefined,
      prefix: typeof selection.prefix === 'string' ? selection.prefix : undefined,
    })),
  );
}

/** A path of virtual servers from `start` back to itself, if there is one. */
function circleFrom(start: string, servers: ReadonlyMap<string, ServerEntry>): string[] | undefined {
  const visit = (name: string, path: string[], seen: Set<string>): string[] | undefined => {
    const entry = servers.get(name);
    if (entry?.type !== VIRTUAL_TYPE) return undefined;
    for (const next of drawnServers(entry)) {
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

/** The servers a `*` selects every tool of whose tools the hub has never seen (`known`), in the entry's order. */
export function unknownYetOf(entry: ServerEntry, known: (server: string) => boolean): string[] {
  return [
    ...new Set(
      selectionsOf(entry)
        .filter((selection) => selection.tool === '*' && !known(selection.server))
        .map((selection) => selection.server),
    ),
  ];
}

/**
 * What `hub check` adds of the servers a `*` selects every tool of and whose tools the hub
 * has never seen (`known`): the kit lists none of them until each has run.
 */
export function describeUnknownYet(entry: ServerEntry, known: (server: string) => boolean): string {
  const unknown = unknownYetOf(entry, known);
  if (unknown.length === 0) return '';
  return `; tools unknown yet of ${unknown.join(', ')} (never run): what "*" selects of ${unknown.length === 1 ? 'it' : 'them'} is listed once ${unknown.length === 1 ? 'it has' : 'each has'} run`;
}

/** What `hub check` says of a virtual server: the servers and what it draws on each (prompts and resources said as such). */
export function describeDraws(entry: ServerEntry): string {
  const byServer = new Map<string, string[]>();
  for (const draw of drawsOf(entry)) {
    const final = draw.kind === 'resources' ? draw.item : finalName(draw, draw.item);
    const named = draw.item === '*' ? (draw.prefix ? `* as ${draw.prefix}*` : '*') : draw.item === final ? draw.item : `${draw.item} as ${final}`;
    const shown = draw.kind === 'tools' ? named : `${draw.kind.slice(0, -1)} ${named}`;
    byServer.set(draw.server, [...(byServer.get(draw.server) ?? []), shown]);
  }
  return `draws on ${[...byServer].map(([server, items]) => `${server} (${items.join(', ')})`).join(', ')}`;
}
