import { createHash } from 'node:crypto';
import { MAX_REVIEW_CHARS } from './definition.js';

/**
 * A server's instructions are pinned as an item of their own, beside its tools, in the
 * same collections: their records carry `item: "instructions"` and an empty `tool`, under
 * a key no tool's key can equal (`pinKey` is a pair, this a single).
 */
export const INSTRUCTIONS = 'instructions';

export function instructionsKey(server: string): string {
  return JSON.stringify([server]);
}

/** The SHA-256 of an instructions text, exactly as the server stated it. */
export function instructionsDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Why instructions of `chars` characters cannot be reviewed, in words the server's author can act on; undefined when they can. */
export function instructionsTooLarge(chars: number): string | undefined {
  if (chars <= MAX_REVIEW_CHARS) return undefined;
  return `the server's instructions are ${chars} characters, more than the ${MAX_REVIEW_CHARS / 1024} KiB an operator can review, so they cannot be approved: the server's author must shorten them`;
}

/** What a caller is told in the log and the withheld event, and what `hub-admin` approves them with. */
export function instructionsWithheldReason(server: string, approvedBefore: boolean, command: string, page: string): string {
  return approvedBefore
    ? `The instructions of server "${server}" changed since an operator approved them: the approved ones are served until an operator approves the change with \`${command}\` or on ${page}.`
    : `The instructions of server "${server}" are new and are not served until an operator approves them with \`${command}\` or on ${page}.`;
}
