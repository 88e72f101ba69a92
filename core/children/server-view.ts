import type { Client, Implementation, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { ServerEntry } from '../config/schema.js';
import type { Child } from './child.js';
import type { ChildStatus } from './child-states.js';
import type { WithheldTool } from './tool-gates.js';

/**
 * A configured server as plugins see it: what it is and says about itself, and the
 * few things a plugin may ask of it. The lifecycle itself (draining, disconnecting,
 * adopting a snapshot, supervision) stays the kernel's.
 */
export interface ServerView {
  readonly name: string;
  readonly entry: Readonly<ServerEntry>;
  readonly status: ChildStatus;
  /** Why the server is not serving (it failed and is down, parked, or awaits a login), if it is not. */
  readonly problem: string | undefined;
  /** Why the server last failed (kept while it starts again or rests); none once it is up. */
  readonly lastError: string | undefined;
  /**
   * The last lines (at most 20) the server's latest process wrote on stderr, oldest first,
   * kept after it exited until the next start: what it said around a failure. Empty for a
   * type without stderr (HTTP, sockets) or before a start. Read-only: a copy each time. The
   * lines are as the child wrote them: mask what may be a secret before showing them.
   */
  stderrTail(): string[];
  readonly alwaysRunning: boolean;
  /** `hub: false`: kept out of `/hub`'s aggregate. */
  readonly hidden: boolean;
  /** The advertised title, else the name. */
  readonly description: string;
  /** The server's own identity, instructions and capabilities as it last stated them (kept while it sleeps). */
  readonly serverInfo: Implementation | undefined;
  /** What callers get of the server's instructions: as it stated them, unless a tool gate withholds them (then what the gate serves instead). */
  readonly instructions: string | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  /** The tools callers get: those the allow/deny filter lets through and no tool gate withholds. */
  readonly tools: Tool[];
  /** The tools a tool gate withholds now (their definition changed since an operator approved it, say), with why. */
  readonly withheldTools: WithheldTool[];
  /** Whether a tool list was ever seen; until then `tools` is empty without meaning "no tools". */
  readonly toolsKnown: boolean;
  /** A virtual server's members whose tools are unknown yet (`ChildType.unknownYet`): it lists nothing of them until each has run. */
  readonly unknownYet: readonly string[];
  /** The revision spoken with the server: the live connection's, else the one remembered from the last. */
  readonly revision: string | undefined;
  /** Whether the server, on the revision it speaks, asks its questions as results. */
  readonly asksByResult: boolean;
  isToolAllowed(toolName: string): boolean;
  /** A tool callers get; undefined for one filtered, withheld by a gate, or unknown. */
  findTool(toolName: string): Tool | undefined;
  /**
   * For a tool `findTool` does not give: the tool once the tool gates were asked afresh
   * (an approval may have been given in another process), or why one still withholds it,
   * or undefined when the server offers no such tool.
   */
  recheckTool(toolName: string): Promise<Tool | string | undefined>;
  /** Asks the tool gates afresh when they withhold a tool now; call it before listing `tools` to a caller. */
  recheckWithheld(): Promise<void>;
  /**
   * The tools a caller of `revision` is shown: `tools`, or, for a server that lists other
   * tools to that revision than to the one the hub speaks with it, those of that revision
   * (asked when not yet known, which may start the server).
   */
  toolsShownTo(revision: string): Promise<Tool[]>;
  /** Tells the server's callers its tool list changed (a tool gate now offers or withholds a tool); nothing is asked of the server. */
  toolsChanged(): void;
  /**
   * Reads the tool list of a running server again (what a child's own `list_changed` does);
   * nothing when it is not running. Callers hear of a change. What it shows other
   * revisions is asked afresh too (a kit's faces follow its members').
   */
  refreshTools(): Promise<void>;
  /** Starts the server when needed (concurrent callers share one start); rejects with a HubError naming it and the reason. */
  ensureUp(): Promise<void>;
  /** Starts a server whose tool list was never seen. */
  ensureToolsKnown(): Promise<void>;
  /** Puts an on-demand server to sleep now. */
  sleep(): Promise<void>;
  /** Ends the connection and starts the server again (calls in flight end with it); rejects as `ensureUp` does. */
  restart(): Promise<void>;
  /** The upstream wants a login only the operator can give: the connection ends and the server shows `unauthorized`. */
  requireLogin(reason: string): Promise<void>;
  /** Runs `work` against the woken server's SDK client; the server does not idle out meanwhile. */
  withClient<T>(work: (client: Client) => Promise<T>): Promise<T>;
}

/** The view of one child; the same object for the child's life, so plugins may key maps by it. */
export class ChildView implements ServerView {
  readonly #child: Child;

  constructor(child: Child) {
    this.#child = child;
  }

  get name(): string {
    return this.#child.name;
  }
  get entry(): Readonly<ServerEntry> {
    return this.#child.entry;
  }
  get status(): ChildStatus {
    return this.#child.status;
  }
  get problem(): string | undefined {
    return this.#child.problem;
  }
  get lastError(): string | undefined {
    return this.#child.lastError;
  }
  stderrTail(): string[] {
    return this.#child.stderrTail();
  }
  get alwaysRunning(): boolean {
    return this.#child.alwaysRunning;
  }
  get hidden(): boolean {
    return this.#child.hidden;
  }
  get description(): string {
    return this.#child.description;
  }
  get serverInfo(): Implementation | undefined {
    return this.#child.serverInfo;
  }
  get instructions(): string | undefined {
    return this.#child.servedInstructions;
  }
  get capabilities(): ServerCapabilities | undefined {
    return this.#child.capabilities;
  }
  get tools(): Tool[] {
    return this.#child.tools;
  }
  get withheldTools(): WithheldTool[] {
    return this.#child.withheldTools;
  }
  get toolsKnown(): boolean {
    return this.#child.toolsKnown;
  }
  get unknownYet(): readonly string[] {
    return this.#child.unknownYet;
  }
  get revision(): string | undefined {
    return this.#child.revision;
  }
  get asksByResult(): boolean {
    return this.#child.asksByResult;
  }
  isToolAllowed(toolName: string): boolean {
    return this.#child.isToolAllowed(toolName);
  }
  findTool(toolName: string): Tool | undefined {
    return this.#child.findTool(toolName);
  }
  recheckTool(toolName: string): Promise<Tool | string | undefined> {
    return this.#child.recheckTool(toolName);
  }
  recheckWithheld(): Promise<void> {
    return this.#child.recheckWithheld();
  }
  toolsShownTo(revision: string): Promise<Tool[]> {
    return this.#child.toolsShownTo(revision);
  }
  toolsChanged(): void {
    this.#child.toolsChanged();
  }
  async refreshTools(): Promise<void> {
    await this.#child.refreshTools();
  }
  async ensureUp(): Promise<void> {
    await this.#child.ensureUp();
  }
  ensureToolsKnown(): Promise<void> {
    return this.#child.ensureToolsKnown();
  }
  sleep(): Promise<void> {
    return this.#child.sleep();
  }
  restart(): Promise<void> {
    return this.#child.restart();
  }
  requireLogin(reason: string): Promise<void> {
    return this.#child.requireLogin(reason);
  }
  withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    return this.#child.withClient(work);
  }
}
