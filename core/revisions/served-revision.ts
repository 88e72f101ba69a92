import type { CallerWire, McpRevision } from './revision.js';

/** A revision as the endpoints serve it to callers: its caller side, with its name. */
export type ServedRevision = CallerWire & { readonly revision: string };

/** The revisions callers may speak, in registration order. */
export function servedRevisions(revisions: readonly McpRevision[]): ServedRevision[] {
  return revisions.flatMap(({ revision, callers }) => (callers ? [{ ...callers, revision }] : []));
}
