import { TOOL_CALL_OUTCOMES, type ToolCallOutcome } from '../../core/plugin/observe.js';

/**
 * The `tool` label of a call whose name the server does not list: a name only a caller
 * gave must never become a label value (anyone could grow the series without end). MCP
 * tool names are letters, digits, `_`, `-` and `.`, so this cannot be one.
 */
export const UNLISTED_TOOL = '(unlisted)';

/** The labels of one server's tool for one outcome, made once and reused for every call. */
export interface ToolLabels {
  readonly server: string;
  readonly tool: string;
  readonly outcome: ToolCallOutcome;
  /** The virtual server a call was made through; absent (not empty) on every other call, so their series are as they were. */
  readonly virtual_server?: string;
}

/** What a server offers its callers, for the label sets: its tools, the names its config denies, and where a routing server's (virtual) tools go. */
export interface ListedServer {
  name: string;
  tools: readonly string[];
  denied: readonly string[];
  routes?: ReadonlyArray<{ server: string; tool: string }>;
}

/** One server's label sets, or a virtual server's toward one underlying server. */
interface LabelGroup {
  readonly server: string;
  readonly virtualServer: string | undefined;
  readonly tools: Map<string, ToolLabels[]>;
}

/** The outcomes a call of a tool the server lists can have (the refusals of a name it does not list cannot). */
const LISTED_OUTCOMES = TOOL_CALL_OUTCOMES.filter((outcome) => outcome !== 'unknown_tool' && outcome !== 'denied');
const OUTCOME_INDEX = new Map(TOOL_CALL_OUTCOMES.map((outcome, index) => [outcome, index]));

/**
 * The label sets of tool calls, per server (`hub` for `/hub`'s own tools) and tool, kept
 * so that a call costs two map lookups and no allocation, and so that series exist (at 0)
 * before their first call: `rate()` and `increase()` see the first burst only if the
 * series was there before it. A tool gets its labels when the server lists it (snapshot,
 * connection, list change) or its config names it in `denyTools`; any other name is
 * `UNLISTED_TOOL`.
 */
export class ToolLabelSets {
  /** By server name, or by virtual server and underlying server (`groupKey`). */
  readonly #groups = new Map<string, LabelGroup>();

  /**
   * The labels for a call of `tool` on `server` ending with `outcome`; `listed` says
   * whether a name not seen yet is one the server lists (its list may have changed).
   * `virtualServer`: the call was made through that virtual server and routed to `server`.
   */
  of(server: string, tool: string, outcome: ToolCallOutcome, listed: (tool: string) => boolean, virtualServer?: string): ToolLabels {
    const index = OUTCOME_INDEX.get(outcome) ?? 0;
    const known = this.#groups.get(groupKey(server, virtualServer))?.tools.get(tool);
    if (known) return known[index] as ToolLabels;
    return this.#add(server, listed(tool) ? tool : UNLISTED_TOOL, virtualServer)[index] as ToolLabels;
  }

  /**
   * Brings the label sets in line with `servers`: every listed tool (and denied name) has
   * its labels, made through `created` for each outcome it can have; a server no longer
   * among them loses its own, which are returned so that their series can be removed.
   */
  sync(servers: readonly ListedServer[], created: (labels: ToolLabels) => void): ToolLabels[] {
    const names = new Set<string>();
    for (const server of servers) {
      names.add(server.name);
      const fresh = (tool: string, outcomes: readonly ToolCallOutcome[], to = server.name, virtualServer?: string) => {
        if (this.#groups.get(groupKey(to, virtualServer))?.tools.has(tool)) return;
        const labels = this.#add(to, tool, virtualServer);
        for (const outcome of outcomes) created(labels[OUTCOME_INDEX.get(outcome) ?? 0] as ToolLabels);
      };
      for (const tool of server.tools) fresh(tool, LISTED_OUTCOMES);
      for (const tool of server.denied) fresh(tool, ['denied']);
      fresh(UNLISTED_TOOL, ['unknown_tool']);
      for (const route of server.routes ?? []) fresh(route.tool, LISTED_OUTCOMES, route.server, server.name);
    }
    const removed: ToolLabels[] = [];
    for (const [key, group] of this.#groups) {
      if (names.has(group.server) && (group.virtualServer === undefined || names.has(group.virtualServer))) continue;
      this.#groups.delete(key);
      for (const labels of group.tools.values()) removed.push(...labels);
    }
    return removed;
  }

  #add(server: string, tool: string, virtualServer: string | undefined): ToolLabels[] {
    const key = groupKey(server, virtualServer);
    let group = this.#groups.get(key);
    if (!group) this.#groups.set(key, (group = { server, virtualServer, tools: new Map() }));
    let labels = group.tools.get(tool);
    if (!labels) {
      labels = TOOL_CALL_OUTCOMES.map((outcome) => Object.freeze(virtualServer === undefined ? { server, tool, outcome } : { server, tool, outcome, virtual_server: virtualServer }));
      group.tools.set(tool, labels);
    }
    return labels;
  }
}

/** Server names are letters, digits, `_` and `-` (`SERVER_NAME_PATTERN`, core/config/schema.ts), so a newline cannot make two groups one. */
function groupKey(server: string, virtualServer: string | undefined): string {
  return virtualServer === undefined ? server : `${virtualServer}\n${server}`;
}
