import type { Client, Implementation, Prompt, Resource, ResourceTemplateType, ServerCapabilities, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEntry } from '../config/schema.js';
import type { ChildType } from './child-type.js';
import type { ChildWires } from './wires.js';

/** What a child shows a client of one revision: its identity, instructions and capabilities. */
export interface ChildFace {
  serverInfo?: Implementation;
  instructions?: string;
  capabilities?: ServerCapabilities;
  /**
   * The lists this face shows where they differ from the lists of the revision spoken with
   * the child; absent (most children) when they are the same, so callers of this revision
   * are answered as those of the revision spoken.
   */
  lists?: FaceLists;
  /** What the revision spoken lists and this face does not: refused to this revision's callers, as the child refuses them. */
  unlisted?: UnlistedItems;
}

/** A child's lists as one connection reads them, by kind. */
export interface FaceLists {
  tools?: Tool[];
  resources?: Resource[];
  resourceTemplates?: ResourceTemplateType[];
  prompts?: Prompt[];
}

/** Names and URIs a face does not list (resource templates match URIs, so none is refused for them). */
export interface UnlistedItems {
  tools?: string[];
  resources?: string[];
  prompts?: string[];
}

type ListKind = keyof FaceLists;

/** How each list is read, which capability offers it, and what names its items. */
const LIST_KINDS: readonly { kind: ListKind; method: string; capability: 'tools' | 'resources' | 'prompts'; key: string; refused: boolean }[] = [
  { kind: 'tools', method: 'tools/list', capability: 'tools', key: 'name', refused: true },
  { kind: 'resources', method: 'resources/list', capability: 'resources', key: 'uri', refused: true },
  { kind: 'resourceTemplates', method: 'resources/templates/list', capability: 'resources', key: 'uriTemplate', refused: false },
  { kind: 'prompts', method: 'prompts/list', capability: 'prompts', key: 'name', refused: true },
];

/** A child that pages a list further than this is not compared (its callers get the lists of the revision spoken). */
const MAX_LIST_PAGES = 50;
/** The items of one list kept in a face at most, for the same reason. */
const MAX_FACE_LIST_ITEMS = 5_000;

type AnyList = Record<string, unknown> & { nextCursor?: string };
/** Any page, as the child sent it: only its list and cursor are read, checked below. */
const ANY_LIST: StandardSchemaV1<AnyList> = { '~standard': { version: 1, vendor: 'mcp-hub', validate: (value) => ({ value: value as AnyList }) } };

/**
 * Every list the connection's capabilities offer, all pages; undefined when one cannot be
 * read whole (an error, or past the bounds above), so nothing is compared on a part.
 */
export async function readLists(client: Client, signal: AbortSignal): Promise<FaceLists | undefined> {
  const capabilities = client.getServerCapabilities() ?? {};
  const lists: FaceLists = {};
  try {
    for (const { kind, method, capability } of LIST_KINDS) {
      if (!capabilities[capability]) continue;
      const items: unknown[] = [];
      let cursor: string | undefined;
      for (let page = 0; ; page += 1) {
        if (page === MAX_LIST_PAGES) return undefined;
        const answer = await client.request({ method, ...(cursor !== undefined && { params: { cursor } }) }, ANY_LIST, { signal });
        const pageItems = answer[kind];
        if (!Array.isArray(pageItems)) return undefined;
        items.push(...(pageItems as unknown[]));
        if (items.length > MAX_FACE_LIST_ITEMS) return undefined;
        cursor = typeof answer.nextCursor === 'string' && answer.nextCursor !== '' ? answer.nextCursor : undefined;
        if (cursor === undefined) break;
      }
      (lists as Record<ListKind, unknown[]>)[kind] = items;
    }
  } catch {
    return undefined;
  }
  return lists;
}

/**
 * What of `face`'s lists differs from `spoken`'s: the lists to keep in the face and what it
 * does not list that the revision spoken does. Empty when every list reads the same.
 */
export function differingLists(face: FaceLists, spoken: FaceLists): Pick<ChildFace, 'lists' | 'unlisted'> {
  const lists: FaceLists = {};
  const unlisted: UnlistedItems = {};
  for (const { kind, key, refused } of LIST_KINDS) {
    const mine = face[kind] as Record<string, unknown>[] | undefined;
    const theirs = spoken[kind] as Record<string, unknown>[] | undefined;
    if (JSON.stringify(mine ?? []) === JSON.stringify(theirs ?? [])) continue;
    (lists as Record<ListKind, unknown[]>)[kind] = mine ?? [];
    if (!refused) continue;
    const shown = new Set((mine ?? []).map((item) => item[key]));
    const hidden = (theirs ?? []).map((item) => item[key]).filter((name): name is string => typeof name === 'string' && !shown.has(name));
    if (hidden.length > 0) (unlisted as Record<string, string[]>)[kind] = hidden;
  }
  return { ...(Object.keys(lists).length > 0 && { lists }), ...(Object.keys(unlisted).length > 0 && { unlisted }) };
}

/** What a connection states about the child, on the revision it negotiated. */
export function faceOf(client: Client): ChildFace {
  const serverInfo = client.getServerVersion();
  const instructions = client.getInstructions();
  const capabilities = client.getServerCapabilities();
  return { ...(serverInfo && { serverInfo }), ...(instructions !== undefined && { instructions }), ...(capabilities && { capabilities }) };
}

/** Whether two faces say the same. */
export function sameFace(a: ChildFace, b: ChildFace): boolean {
  return JSON.stringify([a.serverInfo, a.instructions, a.capabilities]) === JSON.stringify([b.serverInfo, b.instructions, b.capabilities]);
}

/** What learning a face needs of the child. */
export interface FaceHost {
  readonly name: string;
  readonly entry: ServerEntry;
  readonly childType: ChildType;
  readonly log: FastifyBaseLogger;
  readonly wires: ChildWires;
  /** The lists of the revision spoken with the child, read on its own connection; undefined when they cannot be read. */
  spokenLists(signal: AbortSignal): Promise<FaceLists | undefined>;
  readonly configDirectory: string;
}

/**
 * Asks the child what it shows a client of `revision`, on a connection of its own that
 * speaks exactly that revision (the hub's connection speaks another), closed as soon as
 * the answer is read. Null when the child shows nothing there: the type cannot reach the
 * revision, the child negotiates another, or it refuses; what it would show is then the
 * face of the revision the hub speaks with it. Undefined when `signal` ended the asking
 * (the request's budget ran out, or the server was stopped): nothing was learnt. Its lists
 * are read too and kept only where they differ from those of the revision spoken; when
 * either side cannot be read whole, none are kept (callers get the lists of the revision spoken).
 */
export async function learnFace(host: FaceHost, revision: string, signal: AbortSignal): Promise<ChildFace | null | undefined> {
  try {
    const connection = await host.childType.connect(host.entry, {
      name: host.name,
      log: host.log,
      signal,
      prior: undefined,
      wires: host.wires,
      configDirectory: host.configDirectory,
      revision,
      onClosed: () => undefined,
    });
    try {
      if (signal.aborted) return undefined;
      const negotiated = connection.client.getNegotiatedProtocolVersion();
      if (host.wires.revisionFor(negotiated) !== revision) {
        host.log.info({ revision, negotiated }, 'the server shows nothing of its own to clients of this revision');
        return null;
      }
      const [lists, spoken] = await Promise.all([readLists(connection.client, signal), host.spokenLists(signal).catch(() => undefined)]);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the signal may abort during the await; the compiler keeps the check before it
      if (signal.aborted) return undefined;
      if (lists === undefined || spoken === undefined) {
        host.log.info({ revision }, "the server's lists on this revision could not be compared with those of the revision spoken; its callers get the latter");
        return faceOf(connection.client);
      }
      return { ...faceOf(connection.client), ...differingLists(lists, spoken) };
    } finally {
      await connection.close().catch(() => undefined);
    }
  } catch (error) {
    if (signal.aborted) return undefined;
    host.log.info({ revision, err: (error as Error).message }, 'the server shows nothing of its own to clients of this revision');
    return null;
  }
}
