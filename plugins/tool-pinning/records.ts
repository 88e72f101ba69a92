import type { Store, StoreCollection } from '../../core/plugin/store.js';

/** The definitions of one tool of one server (or its instructions) that an operator approved. */
export interface PinRecord {
  /** `pinKey(server, tool)`, or `instructionsKey(server)`. */
  _id: string;
  server: string;
  /** Empty for the server's instructions. */
  tool: string;
  /** `instructions` for the server's instructions; absent for a tool. */
  item?: 'instructions';
  /** The digests approved, oldest first (at most `MAX_APPROVED`): a tool that goes back to one of them is offered again. */
  digests: string[];
  /** The last definition approved, as an operator reads it, for the diff of the next change. */
  text: string;
  approvedAt: Date;
  /** `hub-admin`, `status page` or `first sight`. */
  approvedBy: string;
  /** Bumped by every approval, so that two approvals at once both count (a conditional update each). */
  version: number;
}

/** A definition seen and not approved: what the approval page and `hub-admin tools pending` show. */
export interface ChangeRecord {
  _id: string;
  server: string;
  /** Empty for the server's instructions. */
  tool: string;
  /** `instructions` for the server's instructions; absent for a tool. */
  item?: 'instructions';
  digest: string;
  text: string;
  /** The last definition approved; absent for a tool never approved (a new one). */
  approved?: string;
  /** Set when the definition is too large to review (`text` then says so): it cannot be approved. */
  tooLarge?: string;
  seenAt: Date;
}

/** How many approved definitions of a tool are remembered. */
export const MAX_APPROVED = 20;

export interface PinCollections {
  pins: StoreCollection<PinRecord>;
  changes: StoreCollection<ChangeRecord>;
}

export function pinCollections(store: Store): PinCollections {
  return { pins: store.collection('tool-pins'), changes: store.collection('tool-changes') };
}

/** One record per tool of a server; JSON keeps any tool name apart from the server's. */
export function pinKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

export async function createIndexes(c: PinCollections): Promise<void> {
  await Promise.all([c.pins.createIndex('server'), c.changes.createIndex('server')]);
}
