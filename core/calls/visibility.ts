import type { Tool } from '@modelcontextprotocol/server';
import type { ChildFace } from '../children/child-faces.js';
import type { ServerView } from '../children/server-view.js';
import type { ToolGates, WithheldTool } from '../children/tool-gates.js';
import type { ServerEntry } from '../config/schema.js';
import { mayReach, type CallerRequest } from './caller-request.js';
import type { RequestWake } from '../http/request-wake.js';

/**
 * The one place that decides which tools a caller may see and call. Listing (`tools/list`
 * on `/<name>/mcp`, `/hub`'s `list_tools`, `get_tool_schema`, `search_tools`, code mode's
 * declarations) and calling (`resolveTool`, core/calls/resolve.ts) all ask it, so a tool
 * is listed exactly when it can be called:
 *
 * - the server, for a caller of `/hub`: the caller's reach (`mayReach`), then `hub: false`
 *   (`hubStanding`);
 * - each tool: the entry's allow/deny filter, then every tool gate (pinning)
 *   (`ToolVisibility`, which `Child` asks for its `tools`, `findTool` and `offers`);
 * - the lookup of one named tool, waking a server never seen (`lookupTool`), and the
 *   tools a caller's revision lists when that face lists its own (`offeredTools`; a call
 *   of a tool that face does not show is refused by `Child.hidesTool`).
 */

/** Why a server is not offered to a caller of `/hub`: beyond its reach, or `hub: false`. Undefined when it is offered. */
export type HubStanding = 'unreachable' | 'hidden' | undefined;

/**
 * How `server` stands for a caller of `/hub`. Reach comes first: a caller limited to other
 * servers is told the server does not exist, and learns nothing of its `hub: false`.
 */
export function hubStanding(server: Pick<ServerView, 'name' | 'hidden'>, caller: Pick<CallerRequest, 'servers'>): HubStanding {
  if (!mayReach(caller, server.name)) return 'unreachable';
  return server.hidden ? 'hidden' : undefined;
}

/** Whether `/hub` offers `server`'s tools to the caller (lists and calls them). */
export function offeredOnHub(server: Pick<ServerView, 'name' | 'hidden'>, caller: Pick<CallerRequest, 'servers'>): boolean {
  return hubStanding(server, caller) === undefined;
}

/**
 * Which of one server's tools callers get: those the entry's allow/deny filter lets
 * through (on `allowTools`, or there is no such list, and not on `denyTools`) and no tool
 * gate withholds. Made again when the entry is retuned. Asked on every call: the filter
 * is two set lookups, the gates are skipped when no plugin added one.
 */
export class ToolVisibility {
  readonly #allowed: ReadonlySet<string> | undefined;
  readonly #denied: ReadonlySet<string>;

  constructor(
    entry: Pick<ServerEntry, 'allowTools' | 'denyTools'>,
    private readonly gates: ToolGates | undefined,
    private readonly view: ServerView,
  ) {
    this.#allowed = entry.allowTools ? new Set(entry.allowTools) : undefined;
    this.#denied = new Set(entry.denyTools ?? []);
  }

  /** Whether the allow/deny filter lets the name through. */
  allowed(name: string): boolean {
    return (this.#allowed === undefined || this.#allowed.has(name)) && !this.#denied.has(name);
  }

  /** Whether no tool gate was added: every tool the filter lets through is offered. */
  get ungated(): boolean {
    return this.gates === undefined || this.gates.open;
  }

  /** Why a tool gate withholds a tool the filter lets through, or undefined when none does. */
  withheld(tool: Tool): string | undefined {
    return this.ungated ? undefined : this.gates?.withheld(this.view, tool);
  }

  /** Whether callers get `tool`: the filter lets it through and no gate withholds it. */
  offers(tool: Tool): boolean {
    return this.allowed(tool.name) && this.withheld(tool) === undefined;
  }

  /** The tools the filter lets through, of those the server lists. */
  filtered(listed: readonly Tool[]): Tool[] {
    return listed.filter((tool) => this.allowed(tool.name));
  }

  /** The tools callers get, of those the server lists. */
  offered(listed: readonly Tool[]): Tool[] {
    const filtered = this.filtered(listed);
    return this.ungated ? filtered : filtered.filter((tool) => this.withheld(tool) === undefined);
  }

  /** The tool of that name callers get, of those the server lists; undefined for one filtered, withheld or unknown. */
  find(listed: readonly Tool[], name: string): Tool | undefined {
    if (!this.allowed(name)) return undefined;
    const tool = listed.find((candidate) => candidate.name === name);
    return tool === undefined || this.withheld(tool) === undefined ? tool : undefined;
  }

  /** The tools the filter lets through that a gate withholds now, with why. */
  withheldOf(listed: readonly Tool[]): WithheldTool[] {
    if (this.ungated) return [];
    return this.filtered(listed).flatMap((tool) => {
      const reason = this.withheld(tool);
      return reason === undefined ? [] : [{ name: tool.name, reason }];
    });
  }

  /**
   * For a named tool `find` does not give: the tool once the gates were asked afresh (an
   * approval may have been given in another process), or why one still withholds it, or
   * undefined when callers get no such tool (filtered or unknown).
   */
  async recheck(listed: () => readonly Tool[], name: string): Promise<Tool | string | undefined> {
    if (!this.allowed(name) || this.gates === undefined) return undefined;
    if (!listed().some((tool) => tool.name === name)) return undefined;
    await this.gates.refresh(this.view);
    const tool = listed().find((candidate) => candidate.name === name);
    return tool && (this.withheld(tool) ?? tool);
  }
}

/** What the lookups read of a server: the kernel's child and a plugin's `ServerView` alike. */
export type ToolHolder = Pick<ServerView, 'status' | 'tools' | 'isToolAllowed' | 'findTool' | 'recheckTool' | 'recheckWithheld' | 'ensureToolsKnown'>;

/** The tool a caller names, or why there is none for callers (see `lookupTool`). */
export type ToolLookup = Tool | 'denied' | 'unknown' | { withheld: string };

/**
 * The tool a caller names, or why there is none for callers: `denied` for a name the
 * filter keeps out (refused without waking anything), `unknown` for one the server does
 * not list, `{ withheld }` with the reason of a tool gate that withholds it (its definition
 * awaits an operator's approval). With `askUnlisted` (the transparent proxy), a name the
 * server does not list is the server's to answer while it is up: a stand-in with an open
 * schema is returned. A server never seen is woken to learn its tools, within `wake` (the
 * request's one wait for it) when given; when that fails, the start's own error is thrown.
 */
export async function lookupTool(server: ToolHolder, name: string, { wake, askUnlisted = false }: { wake?: RequestWake | undefined; askUnlisted?: boolean } = {}): Promise<ToolLookup> {
  if (!server.isToolAllowed(name)) return 'denied';
  await (wake ? wake.known() : server.ensureToolsKnown());
  const listed = server.findTool(name) ?? (await server.recheckTool(name));
  if (typeof listed === 'string') return { withheld: listed };
  if (listed) return listed;
  return askUnlisted && server.status === 'up' ? { name, inputSchema: { type: 'object' } } : 'unknown';
}

/**
 * The tools a caller of `/<name>/mcp` is listed, once the server's tools are known (within
 * the request's `wake`) and the gates were asked afresh: the server's, or, when the
 * caller's revision shows a list of its own (`ChildFace.lists`), that list through the
 * same decision.
 */
export async function offeredTools(server: ToolHolder & { offers(tool: Tool): boolean }, wake: RequestWake, face: Pick<ChildFace, 'lists'>): Promise<Tool[]> {
  const own = face.lists?.tools;
  if (own === undefined) await wake.known();
  await server.recheckWithheld();
  return own === undefined ? server.tools : own.filter((tool) => server.offers(tool));
}
