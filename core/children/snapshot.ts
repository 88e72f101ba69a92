import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import { HUB_ERROR_CODES, HubError } from '../errors.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../store/private-files.js';

/**
 * What the last connect negotiated (`RememberedNegotiation`), so the next one need not ask
 * again; the revision spoken decides how long it is trusted.
 */
export const Negotiation = Type.Object({
  revision: Type.String({ minLength: 1 }),
  /** What the server advertised, on a revision that has such an advertisement. */
  advertisement: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** When it was learnt (epoch ms). */
  at: Type.Number(),
});

/** What a child showed a client of one revision (see `ChildFace`). */
const Face = Type.Object({
  serverInfo: Type.Optional(Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: true })),
  instructions: Type.Optional(Type.String()),
  capabilities: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Its lists, by kind, where they differ from those of the revision spoken with the child. */
  lists: Type.Optional(
    Type.Object({
      tools: Type.Optional(Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true }))),
      resources: Type.Optional(Type.Array(Type.Object({ uri: Type.String(), name: Type.String() }, { additionalProperties: true }))),
      resourceTemplates: Type.Optional(Type.Array(Type.Object({ uriTemplate: Type.String(), name: Type.String() }, { additionalProperties: true }))),
      prompts: Type.Optional(Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true }))),
    }),
  ),
  /** The names and URIs it does not list that the revision spoken does, by kind. */
  unlisted: Type.Optional(Type.Object({ tools: Type.Optional(Type.Array(Type.String())), resources: Type.Optional(Type.Array(Type.String())), prompts: Type.Optional(Type.Array(Type.String())) })),
});

/**
 * What a sleeping server answers from: its identity, capabilities and instructions, and its
 * full tool list as the child declared it (schemas, output schemas, annotations), before
 * the allow/deny filter.
 */
export const Snapshot = Type.Object({
  version: Type.Literal(1),
  name: Type.String(),
  /** Written by earlier versions, before the whole identity was kept. */
  title: Type.Optional(Type.String()),
  /** The child's own identity, so its endpoint states it while it sleeps. */
  serverInfo: Type.Optional(Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: true })),
  instructions: Type.Optional(Type.String()),
  /** What the child advertised, so its endpoint offers the same methods while it sleeps. */
  capabilities: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  tools: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true })),
  /**
   * What the child showed clients of revisions other than the one the hub speaks with it,
   * by revision; null where it shows nothing of its own (callers there see the above).
   */
  faces: Type.Optional(Type.Record(Type.String(), Type.Union([Face, Type.Null()]))),
  /** Checked apart from the rest (`negotiationOf`): one written by an earlier version is dropped, the tools kept. */
  negotiation: Type.Optional(Type.Unknown()),
});
export type Snapshot = Static<typeof Snapshot>;

/** The snapshot's remembered negotiation, when it is one this version reads. */
export function negotiationOf(snapshot: Snapshot): Static<typeof Negotiation> | undefined {
  return Value.Check(Negotiation, snapshot.negotiation) ? snapshot.negotiation : undefined;
}

/**
 * `<DATA_PATH>/snapshots/<name>.json`, written atomically (a temporary file renamed over
 * the old one) and only when the content changed. Writes for one server are queued so an
 * older list can never land after a newer one.
 */
export class SnapshotStore {
  readonly directory: string;
  readonly #written = new Map<string, string>();
  readonly #queues = new Map<string, Promise<void>>();

  constructor(
    dataPath: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.directory = join(dataPath, 'snapshots');
  }

  path(name: string): string {
    return join(this.directory, `${name}.json`);
  }

  /** The stored snapshot, or undefined when there is none or it cannot be used (logged). */
  async load(name: string): Promise<Snapshot | undefined> {
    let text: string;
    try {
      text = await readFile(this.path(name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log.warn({ server: name, err: (error as Error).message }, 'tool snapshot unreadable; ignored');
      }
      return undefined;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (!Value.Check(Snapshot, parsed) || parsed.name !== name) throw new HubError(HUB_ERROR_CODES.SNAPSHOT_INVALID, 'not a snapshot of this server');
      this.#written.set(name, JSON.stringify(parsed));
      return parsed;
    } catch (error) {
      this.log.warn({ server: name, file: this.path(name), err: (error as Error).message }, 'tool snapshot corrupt; ignored');
      return undefined;
    }
  }

  /** Queues a write when the content differs from what is on disk; failures are logged. */
  save(snapshot: Snapshot): Promise<void> {
    const text = JSON.stringify(snapshot);
    if (this.#written.get(snapshot.name) === text) return this.#queues.get(snapshot.name) ?? Promise.resolve();
    this.#written.set(snapshot.name, text);
    const previous = this.#queues.get(snapshot.name) ?? Promise.resolve();
    const next = previous.then(() => this.#write(snapshot.name, text));
    this.#queues.set(snapshot.name, next);
    void next.finally(() => {
      if (this.#queues.get(snapshot.name) === next) this.#queues.delete(snapshot.name);
    });
    return next;
  }

  /** Resolves when every queued write has landed (the hub waits for this at close). */
  async flush(): Promise<void> {
    await Promise.all(this.#queues.values());
  }

  async #write(name: string, text: string): Promise<void> {
    const file = this.path(name);
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await makePrivateFolder(this.directory);
      await writeFile(temporary, `${text}\n`, { mode: PRIVATE_FILE_MODE });
      await rename(temporary, file);
    } catch (error) {
      this.#written.delete(name);
      await rm(temporary, { force: true }).catch(() => undefined);
      this.log.warn({ server: name, err: (error as Error).message }, 'tool snapshot not written');
    }
  }
}
