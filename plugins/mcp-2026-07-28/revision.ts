import type { McpRevision } from '../../core/plugin/revision.js';
import { createCallerWire } from './caller-wire.js';
import { createChildWire } from './child-wire.js';

/** The revision, both sides of its wire. */
export function createModernRevision(revision: string, options: { elicitation: boolean }): McpRevision & Required<Pick<McpRevision, 'callers' | 'child'>> {
  return { revision, callers: createCallerWire(revision, options), child: createChildWire(revision) };
}
