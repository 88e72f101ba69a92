import type { Tool } from '@modelcontextprotocol/server';
import { aboutServer, toolDocument } from './documents.js';
import { Ranker } from './ranking.js';
import type { FoundTool, NotSearchable, SearchToolsOutput } from './schemas.js';
import type { Servers } from '../../core/plugin/index.js';
import { descriptionLine, type ServerView } from '../../core/plugin/meta-tool.js';

/** What was indexed of one server: the very tool objects (a new list is a new array of new objects), and its text. */
interface Indexed {
  tools: readonly Tool[];
  about: string;
  ids: string[];
}

export interface SearchRequest {
  query: string;
  limit: number;
  /** Only this server's tools. */
  server?: string;
  /** Whether the one asking may search this server (a `/hub` caller: offered through /hub and within its token's servers). */
  reaches(server: ServerView): boolean;
}

/**
 * The search index over every server's tools, the ones callers get (after the allow/deny
 * filter and the tool gates). It follows the hub's events, never polls and never asks a
 * server anything: a server whose tools may read differently (`toolsChanged`: a change it
 * reported, a snapshot adopted, a gate that changed its mind) or that a reload took out
 * is marked, and re-indexed on the next turn of the event loop, or by the next search if
 * that comes first. A sleeping server is indexed from its snapshot, as `list_tools` shows it.
 */
export class ToolIndex {
  readonly #servers: Servers;
  readonly #ranker: Ranker;
  readonly #indexed = new Map<string, Indexed>();
  readonly #dirty = new Set<string>();
  #everything = true;
  #scheduled: NodeJS.Immediate | undefined;

  constructor(servers: Servers, ranker = new Ranker()) {
    this.#servers = servers;
    this.#ranker = ranker;
  }

  /** Follows the servers' tool lists and removals; returns the unsubscribe. */
  follow(): () => void {
    const unobserve = this.#servers.observe({ toolsChanged: (server) => this.#mark(server.name) });
    const unremoved = this.#servers.onRemoved((name) => this.#mark(name));
    return () => {
      unobserve();
      unremoved();
      if (this.#scheduled) clearImmediate(this.#scheduled);
      this.#scheduled = undefined;
      this.#ranker.close();
    };
  }

  /** Re-indexes every server (a reload may have changed their entries). */
  markAll(): void {
    this.#everything = true;
    this.#schedule();
  }

  /** How many tools are indexed now (after bringing the index up to date). */
  get size(): number {
    this.refresh();
    return this.#ranker.documentCount;
  }

  /** Brings the index up to date with what is marked. */
  refresh(): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    const names = this.#everything ? new Set([...this.#indexed.keys(), ...this.#servers.list().map((server) => server.name)]) : new Set(this.#dirty);
    this.#everything = false;
    this.#dirty.clear();
    for (const name of names) this.#reindex(name);
  }

  search(request: SearchRequest): SearchToolsOutput {
    this.refresh();
    const servers = new Map<string, { view: ServerView; offered: Set<string> } | null>();
    /** The server when the one asking reaches it, with the names of the tools it offers callers now. */
    const reached = (name: string) => {
      let entry = servers.get(name);
      if (entry === undefined) {
        const view = this.#servers.get(name);
        entry = view && request.reaches(view) ? { view, offered: new Set(view.tools.map((tool) => tool.name)) } : null;
        servers.set(name, entry);
      }
      return entry;
    };
    // A withheld or filtered tool, or a server out of reach, is left out here: the index
    // follows events, and this check reads the server as the caller's listing would.
    const keep = (server: string, tool: string) => (request.server === undefined || server === request.server) && reached(server)?.offered.has(tool) === true;
    const tools = this.#ranker.rank(request.query, keep, request.limit).flatMap((hit): FoundTool[] => {
      const tool = reached(hit.server)?.view.findTool(hit.tool);
      if (!tool) return [];
      return [
        {
          server: hit.server,
          tool: tool.name,
          title: tool.title ?? tool.annotations?.title ?? tool.name,
          description: descriptionLine(tool.description),
          matched: hit.matched,
          score: Math.round(hit.score * 1000) / 1000,
          ...(tool.outputSchema !== undefined && { hasOutputSchema: true as const }),
          ...(tool.annotations !== undefined && { annotations: tool.annotations }),
        },
      ];
    });
    const notSearchable = this.#servers
      .list()
      .filter((view) => !view.toolsKnown && (request.server === undefined || view.name === request.server) && request.reaches(view))
      .map((view): NotSearchable => ({ server: view.name, reason: neverSeen(view) }));
    const notice =
      tools.length === 0
        ? nothingMatched(
            request.query,
            this.#servers.list().filter((view) => view.toolsKnown && (request.server === undefined || view.name === request.server) && request.reaches(view)),
          )
        : undefined;
    return { tools, ...(notSearchable.length > 0 && { notSearchable }), ...(notice !== undefined && { notice }) };
  }

  #mark(name: string): void {
    this.#dirty.add(name);
    this.#schedule();
  }

  #schedule(): void {
    // One re-index for every change of one turn (a reload marks many servers at once).
    this.#scheduled ??= setImmediate(() => {
      this.#scheduled = undefined;
      this.refresh();
    });
  }

  #reindex(name: string): void {
    const view = this.#servers.get(name);
    const before = this.#indexed.get(name);
    const tools = view?.toolsKnown ? view.tools : [];
    const about = view ? aboutServer(view) : '';
    if (before && before.about === about && sameTools(before.tools, tools)) return;
    if (before) this.#ranker.discardAll(before.ids);
    if (!view || tools.length === 0) {
      this.#indexed.delete(name);
      return;
    }
    // A server that lists one name twice is indexed once per name (the first), as callers find it.
    const seen = new Set<string>();
    const documents = tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name)).map((tool) => toolDocument(name, about, tool));
    this.#ranker.addAll(documents);
    this.#indexed.set(name, { tools, about, ids: documents.map((document) => document.id) });
  }
}

function sameTools(before: readonly Tool[], now: readonly Tool[]): boolean {
  return before.length === now.length && before.every((tool, index) => tool === now[index]);
}

function nothingMatched(query: string, searched: readonly ServerView[]): string {
  const tools = searched.reduce((sum, view) => sum + view.tools.length, 0);
  return (
    `No tool matched "${query}": searched the names, titles, descriptions, input fields and server descriptions of ${tools} tool${tools === 1 ? '' : 's'} ` +
    `on ${searched.length} server${searched.length === 1 ? '' : 's'}, with the words' synonyms. Try other words, or call list_servers, then list_tools, to browse.`
  );
}

function neverSeen(view: ServerView): string {
  const status = view.status === 'sleeping' ? 'it has never started' : `it is ${view.status} and its tools were never seen`;
  return `${status}, so its tools are not known and were not searched (nothing was started to learn them). list_tools with server "${view.name}" starts it and lists them.`;
}
