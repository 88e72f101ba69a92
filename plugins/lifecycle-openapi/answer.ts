import { STATUS_CODES } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ValidateFunction } from 'ajv';
import { isJsonMediaType, type OperationTool } from './tools.js';

export interface AnswerLimits {
  server: string;
  /** Text answers (and the text beside a structured one) are cut to this many bytes. */
  maxTextBytes: number;
  /** The compiled output schema of a tool, made on first use. */
  outputValidator(planned: OperationTool): ValidateFunction | undefined;
}

/** How much of a refused answer's body a tool error quotes. */
const EXCERPT_BYTES = 500;

/**
 * An API answer as a tool result. 2xx JSON: `structuredContent` (the value, or
 * `{ result: value }` when it is not an object), checked against the output schema when
 * the document declares one, and its text. 2xx text: the text, cut at `maxTextBytes`.
 * 2xx binary: an embedded resource. Anything else: a tool error with the status, its
 * reason and the start of the body.
 */
export function answerOf(planned: OperationTool, url: URL, status: number, headers: Headers, body: Buffer, limits: AnswerLimits): CallToolResult {
  const label = planned.operation.label;
  const type = headers.get('content-type') ?? undefined;
  const heading = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
  if (status < 200 || status > 299) {
    const excerpt = body.length === 0 ? '' : `: ${cut(decodeText(body) ?? `(${body.length} bytes of ${type ?? 'binary'})`, EXCERPT_BYTES)}`;
    return error(`server "${limits.server}": ${label} answered ${heading}${excerpt}`);
  }
  const validate = limits.outputValidator(planned);
  if (isJsonMediaType(type) && body.length > 0) {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return error(`server "${limits.server}": ${label} answered ${heading} with content-type ${type} but its body is not JSON: ${cut(body.toString('utf8'), EXCERPT_BYTES)}`);
    }
    const structured = !planned.wrapsResult && typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
    if (validate && !validate(structured)) {
      const first = validate.errors?.[0];
      return error(
        `server "${limits.server}": ${label} answered ${heading} with JSON that does not match the response schema its document declares${
          first ? ` (at ${first.instancePath || '/'}: ${first.message ?? 'invalid'})` : ''
        }: ${cut(body.toString('utf8'), EXCERPT_BYTES)}`,
      );
    }
    return { content: [{ type: 'text', text: cut(JSON.stringify(value), limits.maxTextBytes) }], structuredContent: structured };
  }
  if (validate) return error(`server "${limits.server}": ${label} answered ${heading} with ${body.length === 0 ? 'no body' : `content-type ${type ?? 'none'}`} where its document declares JSON`);
  if (body.length === 0) return { content: [{ type: 'text', text: `${heading} (no content)` }] };
  const text = textual(type) || type === undefined ? decodeText(body) : undefined;
  if (text !== undefined) return { content: [{ type: 'text', text: cut(text, limits.maxTextBytes) }] };
  return { content: [{ type: 'resource', resource: { uri: url.href, mimeType: type ?? 'application/octet-stream', blob: body.toString('base64') } }] };
}

function error(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Media types whose bodies are text. */
function textual(type: string | undefined): boolean {
  const essence = type?.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence.startsWith('text/') || isJsonMediaType(essence) || /^application\/([a-z0-9.+-]*\+)?(xml|yaml|x-yaml|javascript|x-www-form-urlencoded|graphql|csv)$/.test(essence);
}

/** The body as UTF-8, or undefined when it is not (binary). */
function decodeText(body: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/** At most `maxBytes` of UTF-8, cut on a character boundary, saying so. */
export function cut(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const kept = new TextDecoder('utf-8').decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
  return `${kept}… (cut: ${bytes.length} bytes in all)`;
}
