import type { Client, Implementation, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { ServerEntry } from '../config/schema.js';
import type { RememberedNegotiation } from '../revisions/revision.js';
import { sameFace, type ChildFace } from './child-faces.js';
import type { Snapshot, SnapshotStore } from './snapshot.js';

/**
 * What a configured server said about itself, kept while it sleeps: its identity and its
 * tool list as it lists it (which of them callers get is decided in core/calls/visibility.ts),
 * and what it showed clients of the
 * other revisions the hub speaks. The on-disk snapshot is this (with the negotiation
 * remembered), so a hub that restarts answers listing without waking anything. `Child`
 * adds the lifecycle.
 */
export class ChildProfile {
  /** The child's own identity (name, version, title, icons, website) as it last stated it; kept while it sleeps. */
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** What the child advertised on its last connection; kept while it sleeps. */
  capabilities: ServerCapabilities | undefined;
  /** Faces on revisions other than the one spoken with the child, by revision; null: nothing of its own there. */
  readonly #faces = new Map<string, ChildFace | null>();
  /** Whether a face lists other tools, resources or prompts than the revision spoken: only then is a call checked against the caller's face. */
  #listsDiffer = false;
  #tools: Tool[] = [];
  /** Whether a tool list was ever seen (a connection or a snapshot); an empty list can be real. */
  #toolsKnown = false;
  #entry: ServerEntry;
  readonly #snapshots: SnapshotStore | undefined;

  constructor(
    readonly name: string,
    entry: ServerEntry,
    snapshots: SnapshotStore | undefined,
  ) {
    this.#entry = entry;
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
  }

  /** The child's advertised title, for `list_servers`. */
  get title(): string | undefined {
    return this.serverInfo?.title;
  }

  get description(): string {
    return this.title ?? this.name;
  }

  /** The tools as the server lists them, before the filter and the tool gates. */
  protected get listedTools(): readonly Tool[] {
    return this.#tools;
  }

  /** Whether the tool list was ever seen; until then `tools` is empty without meaning "no tools". */
  get toolsKnown(): boolean {
    return this.#toolsKnown;
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
    this.#faces.clear();
    for (const [revision, face] of Object.entries(snapshot.faces ?? {})) this.#faces.set(revision, face as ChildFace | null);
    this.#facesChanged();
    this.adoptTools(snapshot.tools as Tool[]);
  }

  /** What the child shows a client of the revision spoken with it (as it last stated it). */
  get face(): ChildFace {
    return {
      ...(this.serverInfo && { serverInfo: this.serverInfo }),
      ...(this.instructions !== undefined && { instructions: this.instructions }),
      ...(this.capabilities && { capabilities: this.capabilities }),
    };
  }

  /** What the child showed a client of another `revision`: null for nothing of its own, undefined when never asked. */
  knownFace(revision: string): ChildFace | null | undefined {
    return this.#faces.get(revision);
  }

  /** Keeps what the child showed a client of another `revision`. */
  protected keepFace(revision: string, face: ChildFace | null, negotiation: RememberedNegotiation | undefined): void {
    this.#faces.set(revision, face);
    this.#facesChanged();
    this.saveSnapshot(negotiation);
  }

  /** Whether some revision's callers see other lists than those of the revision spoken (`ChildFace.lists`). */
  get listsDiffer(): boolean {
    return this.#listsDiffer;
  }

  /**
   * The child reported a list change: the faces that hold lists of their own are asked
   * afresh (what they kept may be stale). Faces whose lists read the same as the revision
   * spoken are kept: they keep following the lists of the revision spoken.
   */
  protected forgetListedFaces(): void {
    if (!this.#listsDiffer) return;
    for (const [revision, face] of this.#faces) if (face?.lists !== undefined || face?.unlisted !== undefined) this.#faces.delete(revision);
    this.#facesChanged();
  }

  /**
   * The child's lists were re-read on a plugin's word (a kit whose members changed): what
   * another revision is shown may differ now though it read the same before, so every
   * face is asked afresh.
   */
  protected forgetFaces(): void {
    this.#faces.clear();
    this.#facesChanged();
  }

  #facesChanged(): void {
    this.#listsDiffer = [...this.#faces.values()].some((face) => face?.lists !== undefined || face?.unlisted !== undefined);
  }

  /**
   * Takes what a new connection states about the child; what it leaves out is kept. A
   * child that shows another face than before (upgraded, or spoken to on another
   * revision) is asked afresh what it shows on the other revisions.
   */
  protected adoptIdentity(client: Client): void {
    const before = this.face;
    this.serverInfo = client.getServerVersion() ?? this.serverInfo;
    this.instructions = client.getInstructions() ?? this.instructions;
    this.capabilities = client.getServerCapabilities() ?? this.capabilities;
    if (!sameFace(before, this.face)) {
      this.#faces.clear();
      this.#listsDiffer = false;
    }
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
      ...(this.#faces.size > 0 && { faces: Object.fromEntries(this.#faces) }),
      ...(negotiation === undefined ? {} : { negotiation }),
    });
  }
}
