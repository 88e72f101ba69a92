import type { Client, Implementation, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { ServerEntry } from '../config/schema.js';
import type { RememberedNegotiation } from '../mcp/revision.js';
import type { Snapshot, SnapshotStore } from './snapshot.js';
import { createToolFilter } from './tool-filter.js';

/**
 * What a configured server said about itself, kept while it sleeps: its identity and its
 * tool list, seen through the entry's allow/deny filter. The on-disk snapshot is this
 * (with the negotiation remembered), so a hub that restarts answers listing without waking anything.
 * `Child` adds the lifecycle.
 */
export class ChildProfile {
  /** The child's own identity (name, version, title, icons, website) as it last stated it; kept while it sleeps. */
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** What the child advertised on its last connection; kept while it sleeps. */
  capabilities: ServerCapabilities | undefined;
  #tools: Tool[] = [];
  /** Whether a tool list was ever seen (a connection or a snapshot); an empty list can be real. */
  #toolsKnown = false;
  #entry: ServerEntry;
  #isToolAllowed: (toolName: string) => boolean;
  readonly #snapshots: SnapshotStore | undefined;

  constructor(
    readonly name: string,
    entry: ServerEntry,
    snapshots: SnapshotStore | undefined,
  ) {
    this.#entry = entry;
    this.#isToolAllowed = createToolFilter(entry);
    this.#snapshots = snapshots;
  }

  get entry(): ServerEntry {
    return this.#entry;
  }

  /**
   * Takes an entry that differs only in what the hub applies itself (the tool filters,
   * `hub`, `timeout`): the child behind it is the same, so it keeps running.
   */
  protected retuneEntry(entry: ServerEntry): void {
    this.#entry = entry;
    this.#isToolAllowed = createToolFilter(entry);
  }

  /** The child's advertised title, for `list_servers`. */
  get title(): string | undefined {
    return this.serverInfo?.title;
  }

  get description(): string {
    return this.title ?? this.name;
  }

  /** The tools that survive the allow/deny filter. */
  get tools(): Tool[] {
    return this.#tools.filter((tool) => this.#isToolAllowed(tool.name));
  }

  /** Whether the tool list was ever seen; until then `tools` is empty without meaning "no tools". */
  get toolsKnown(): boolean {
    return this.#toolsKnown;
  }

  isToolAllowed(toolName: string): boolean {
    return this.#isToolAllowed(toolName);
  }

  findTool(toolName: string): Tool | undefined {
    return this.isToolAllowed(toolName) ? this.#tools.find((tool) => tool.name === toolName) : undefined;
  }

  /** Adopts a tool list known without a connection. */
  adoptTools(tools: Tool[]): void {
    this.#tools = tools;
    this.#toolsKnown = true;
  }

  /** Adopts what a snapshot on disk says, so a sleeping server answers listing. */
  adoptSnapshot(snapshot: Snapshot): void {
    this.serverInfo = snapshot.serverInfo ?? (snapshot.title === undefined ? undefined : { name: this.name, version: '', title: snapshot.title });
    this.instructions = snapshot.instructions;
    this.capabilities = snapshot.capabilities;
    this.adoptTools(snapshot.tools as Tool[]);
  }

  /** Takes what a new connection states about the child; what it leaves out is kept. */
  protected adoptIdentity(client: Client): void {
    this.serverInfo = client.getServerVersion() ?? this.serverInfo;
    this.instructions = client.getInstructions() ?? this.instructions;
    this.capabilities = client.getServerCapabilities() ?? this.capabilities;
  }

  /** Takes a tool list read from the child; true when it differs from the last. */
  protected updateTools(tools: Tool[]): boolean {
    const changed = JSON.stringify(tools) !== JSON.stringify(this.#tools);
    this.adoptTools(tools);
    return changed;
  }

  protected saveSnapshot(negotiation: RememberedNegotiation | undefined): void {
    void this.#snapshots?.save({
      version: 1,
      name: this.name,
      ...(this.serverInfo === undefined ? {} : { serverInfo: this.serverInfo }),
      ...(this.instructions === undefined ? {} : { instructions: this.instructions }),
      ...(this.capabilities === undefined ? {} : { capabilities: this.capabilities }),
      tools: this.#tools,
      ...(negotiation === undefined ? {} : { negotiation }),
    });
  }
}
