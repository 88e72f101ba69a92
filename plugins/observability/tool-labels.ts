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
  readonly #servers = new Map<string, Map<string, ToolLabels[]>>();

  /**
   * The labels for a call of `tool` on `server` ending with `outcome`; `listed` says
   * whether a name not seen yet is one the server lists (its list may have changed).
   */
  of(server: string, tool: string, outcome: ToolCallOutcome, listed: (tool: string) => boolean): ToolLabels {
    const index = OUTCOME_INDEX.get(outcome) ?? 0;
    const known = this.#servers.get(server)?.get(tool);
    if (known) return known[index] as ToolLabels;
    return this.#add(server, listed(tool) ? tool : UNLISTED_TOOL)[index] as ToolLabels;
  }

  /**
   * Brings the label sets in line with `servers`: every listed tool (and denied name) has
   * its labels, made through `created` for each outcome it can have; a server no longer
   * among them loses its own, which are returned so that their series can be removed.
   */
  sync(servers: ReadonlyArray<{ name: string; tools: readonly string[]; denied: readonly string[] }>, created: (labels: ToolLabels) => void): ToolLabels[] {
    const names = new Set<string>();
    for (const server of servers) {
      names.add(server.name);
      const fresh = (tool: string, outcomes: readonly ToolCallOutcome[]) => {
        if (this.#servers.get(server.name)?.has(tool)) return;
        const labels = this.#add(server.name, tool);
        for (const outcome of outcomes) created(labels[OUTCOME_INDEX.get(outcome) ?? 0] as ToolLabels);
      };
      for (const tool of server.tools) fresh(tool, LISTED_OUTCOMES);
      for (const tool of server.denied) fresh(tool, ['denied']);
      fresh(UNLISTED_TOOL, ['unknown_tool']);
    }
    const removed: ToolLabels[] = [];
    for (const [server, tools] of this.#servers) {
      if (names.has(server)) continue;
      this.#servers.delete(server);
      for (const labels of tools.values()) removed.push(...labels);
    }
    return removed;
  }

  #add(server: string, tool: string): ToolLabels[] {
    let tools = this.#servers.get(server);
    if (!tools) this.#servers.set(server, (tools = new Map()));
    let labels = tools.get(tool);
    if (!labels) tools.set(tool, (labels = TOOL_CALL_OUTCOMES.map((outcome) => Object.freeze({ server, tool, outcome }))));
    return labels;
  }
}
