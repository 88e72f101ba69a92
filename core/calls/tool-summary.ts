import { Type } from 'typebox';

/** What a listing shows of a tool's description: its first line, cut here. */
export const DESCRIPTION_LINE_MAX = 120;

/**
 * A child's tool annotations as a meta-tool hands them on: verbatim, the known hints plus
 * whatever else the child declared. One schema, so that `list_tools` and `search_tools`
 * describe them alike.
 */
export const ToolAnnotationsSchema = Type.Object(
  {
    title: Type.Optional(Type.String()),
    readOnlyHint: Type.Optional(Type.Boolean()),
    destructiveHint: Type.Optional(Type.Boolean()),
    idempotentHint: Type.Optional(Type.Boolean()),
    openWorldHint: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true, description: "The child's own MCP annotations, unverified. Absent when it declared none." },
);

/** The first line of a tool's description, at most `DESCRIPTION_LINE_MAX` characters. */
export function descriptionLine(description: string | undefined): string {
  const first = (description ?? '').trimStart().split(/\r?\n/, 1)[0] ?? '';
  return first.trimEnd().slice(0, DESCRIPTION_LINE_MAX);
}
