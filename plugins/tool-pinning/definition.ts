import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/server';
import { createTwoFilesPatch } from 'diff';
import { configure } from 'safe-stable-stringify';

/** Sorted keys, so that a definition's text and digest do not depend on the order a server wrote its keys in. */
const canonical = configure({ deterministic: true, circularValue: null });

/** The text kept of a definition (for the diff an operator reviews) is cut here; the digest covers all of it. */
const MAX_TEXT_CHARS = 256 * 1024;
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
  return createHash('sha256').update(canonical(pinnedPart(tool)) ?? '').digest('hex');
}

/** The pinned part of a tool as an operator reads it: indented JSON, keys sorted, bounded. */
export function definitionText(tool: Tool): string {
  const text = canonical(pinnedPart(tool), null, 2) ?? '';
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n… (${text.length - MAX_TEXT_CHARS} more characters not kept)` : text;
}

/** A unified diff from the approved definition (none for a new tool) to the one seen. */
export function definitionDiff(approved: string | undefined, seen: string): string {
  const diff = createTwoFilesPatch('approved', 'seen', approved === undefined ? '' : `${approved}\n`, `${seen}\n`, undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  // The rule line above the two names says nothing the reader needs.
  return diff === undefined ? `(too many changed lines to show a diff; the definition seen is:)\n${seen}` : diff.split('\n').slice(1).join('\n').trimEnd();
}
