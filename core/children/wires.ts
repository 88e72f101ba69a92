import type { ChildWire, McpRevision } from '../revisions/revision.js';

/** The revisions the hub speaks to children, as the children ask for them. */
export interface ChildWires {
  /** The wire of a connection that negotiated `version`; undefined when no enabled revision speaks it. */
  wireFor(version: string | undefined): ChildWire | undefined;
  /** The revision (as registered) whose wire speaks `version`: what a child's face on it is kept under. */
  revisionFor(version: string | undefined): string | undefined;
  /** The wire registered under `revision`; undefined when that revision is not spoken to children. */
  wireOf(revision: string): ChildWire | undefined;
  /** Whether one of them is found only by probing (the SDK client then probes when a child type allows it). */
  readonly probe: boolean;
  /** Whether one of them is found by the plain handshake, without a probe (else a child type's wish not to probe cannot be kept). */
  readonly handshake: boolean;
  /** The revisions spoken, for messages. */
  readonly names: string[];
}

/**
 * Reads the registered revisions once, at the first question: revision plugins register
 * while the hub starts, and children connect only after that.
 */
export function childWires(revisions: () => readonly McpRevision[]): ChildWires {
  let known: { wire: ChildWire; revision: string }[] | undefined;
  const list = () => (known ??= revisions().flatMap(({ revision, child }) => (child ? [{ wire: child, revision }] : [])));
  const speaking = (version: string | undefined) => (version === undefined ? undefined : list().find(({ wire }) => wire.speaks(version)));
  return {
    wireFor: (version) => speaking(version)?.wire,
    revisionFor: (version) => speaking(version)?.revision,
    wireOf: (revision) => list().find((entry) => entry.revision === revision)?.wire,
    get probe() {
      return list().some(({ wire }) => wire.probed);
    },
    get handshake() {
      return list().some(({ wire }) => !wire.probed);
    },
    get names() {
      return list().map(({ revision }) => revision);
    },
  };
}
