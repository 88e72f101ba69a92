import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/server';
import { createTwoFilesPatch } from 'diff';
import { configure } from 'safe-stable-stringify';

/** Sorted keys, so that a definition's text and digest do not depend on the order a server wrote its keys in. */
const canonical = configure({ deterministic: true, circularValue: null });

/**
 * The largest definition an operator is asked to review, as indented JSON. A larger one is
 * never cut (an approval would approve more than was shown): it cannot be approved, and
 * its server's author is told to shorten it.
 */
export const MAX_REVIEW_CHARS = 256 * 1024;
/** Beyond this many changed lines a diff says so instead of being computed (its cost grows with the distance). */
const MAX_EDIT_LENGTH = 2000;

/**
 * What is pinned of a tool: all of it, as the server listed it and a client reads it
 * (name, title, description, schemas, annotations, icons, `_meta`, `execution`, and any key
 * a later revision adds). A tool with none of the parts added since issue 30 keeps the
 * digest it was approved with: undefined parts are left out of the text.
 */
function pinnedPart(tool: Tool): Record<string, unknown> {
  return { ...tool };
}

/** The SHA-256 of a whole tool definition, keys sorted. */
export function definitionDigest(tool: Tool): string {
  return createHash('sha256')
    .update(canonical(pinnedPart(tool)))
    .digest('hex');
}

/** The pinned part of a tool as an operator reads it: indented JSON, keys sorted, whole. */
export function definitionText(tool: Tool): string {
  return canonical(pinnedPart(tool), null, 2);
}

/** Why a definition of `chars` characters cannot be reviewed, in words its server's author can act on; undefined when it can. */
export function tooLargeToReview(tool: string, chars: number): string | undefined {
  if (chars <= MAX_REVIEW_CHARS) return undefined;
  return `the definition of tool "${tool}" is ${chars} characters as JSON, more than the ${
    MAX_REVIEW_CHARS / 1024
  } KiB an operator can review, so it cannot be approved: the server's author must shorten it (its description, title or schemas)`;
}

/** A unified diff from the approved definition (none for a new tool) to the one seen. */
export function definitionDiff(approved: string | undefined, seen: string): string {
  const diff = createTwoFilesPatch('approved', 'seen', approved === undefined ? '' : `${approved}\n`, `${seen}\n`, undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  // The rule line above the two names says nothing the reader needs.
  return diff === undefined ? `(too many changed lines to show a diff; the definition seen is:)\n${seen}` : diff.split('\n').slice(1).join('\n').trimEnd();
}
