import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { HUB_ERROR_CODES, HubError } from '../errors.js';
import { discardBody } from './discard-body.js';
import { jsonRpcError, requestIdOf } from './json-rpc-message.js';

/**
 * Deeper JSON is refused before it is parsed: nothing an MCP client sends nests this far,
 * and recursive code further on (schema checks, cloning) would overflow its stack.
 */
export const MAX_JSON_DEPTH = 256;

/** JSON-RPC's own codes for what the body itself gets wrong. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
/** The SDK's answer to a body that is not JSON: HTTP 415 with the generic server error code. */
const UNSUPPORTED_MEDIA = -32000;
/** A refusal of who is asking (bearer, limits): implementation-defined server error. */
const REFUSED = -32000;

/** A body the MCP routes refuse, with the HTTP status and JSON-RPC code it is answered with. */
class JsonRpcBodyError extends HubError {
  override readonly name = 'JsonRpcBodyError';

  constructor(
    readonly statusCode: number,
    readonly rpcCode: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(HUB_ERROR_CODES.JSON_RPC_BODY, message, options);
  }
}

/**
 * Makes every answer of the MCP routes registered on `mcp` (an encapsulated context)
 * JSON-RPC, whatever the body: an empty or malformed body is a parse error (-32700), a
 * body too deep, too large or carrying a prototype key an invalid request (-32600), and
 * a body that is not JSON is left to the SDK, which answers it (HTTP 415), and a refusal
 * given in other terms is restated (`asJsonRpcRefusal`). Nothing a client sends produces
 * a 500. It is also the one error path of the routes' own failures (a bug, a plugin's
 * throw): logged, and answered as a JSON-RPC internal error with the request's id.
 */
export function acceptJsonRpcBodies(mcp: FastifyInstance): void {
  mcp.removeAllContentTypeParsers();
  mcp.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    try {
      done(null, parseJsonRpcBody(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // The SDK checks the media type before it reads a body, so it needs none to refuse one.
  mcp.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  mcp.addHook('onSend', async (_request, reply, payload) => asJsonRpcRefusal(reply.statusCode, payload));
  mcp.setErrorHandler(async (error: FastifyError | JsonRpcBodyError, request, reply) => {
    const { statusCode, rpcCode, message } = describe(error);
    if (statusCode >= 500) request.log.error({ err: error }, 'MCP request failed');
    // An answer already begun (a stream) cannot become an error: the caller sees the connection close rather than wait.
    if (reply.raw.headersSent) {
      reply.hijack();
      reply.raw.destroy();
      return;
    }
    // A body refused before it was read whole: the answer waits for the rest (within a bound), else the close would lose it.
    if (statusCode === 413) await discardBody(request.raw);
    return reply.code(statusCode).send(jsonRpcError(requestIdOf(request.body), rpcCode, message));
  });
}

/**
 * A refusal made before the JSON-RPC layer in terms other than JSON-RPC (the bearer
 * check's OAuth error, `{"error": "invalid_token", "error_description": ...}`), restated
 * as a JSON-RPC error whose message is the description, so that an MCP client shows why
 * (a token minted for another base URL, revoked, expired). The original stays in `data`;
 * headers such as WWW-Authenticate are untouched.
 */
export function asJsonRpcRefusal(status: number, payload: unknown): unknown {
  if (status < 400 || typeof payload !== 'string' || !payload.startsWith('{')) return payload;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return payload;
  }
  if ('jsonrpc' in body) return payload;
  const description = [body.error_description, body.message, body.error].find((value): value is string => typeof value === 'string') ?? 'refused';
  const reason = STATUS_CODES[status] ?? `HTTP ${status}`;
  return JSON.stringify(jsonRpcError(null, REFUSED, `${reason}: ${description}`, body));
}

/** A request body as the MCP routes accept it (see `acceptJsonRpcBodies`). */
export function parseJsonRpcBody(text: string): unknown {
  if (text.trim() === '') throw new JsonRpcBodyError(400, PARSE_ERROR, 'Parse error: the request body is empty');
  if (depthExceeds(text, MAX_JSON_DEPTH)) throw new JsonRpcBodyError(400, INVALID_REQUEST, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const forbidden = (error as Error).message.includes('forbidden prototype');
    throw forbidden
      ? new JsonRpcBodyError(400, INVALID_REQUEST, 'Invalid Request: the body carries a forbidden prototype property', { cause: error })
      : new JsonRpcBodyError(400, PARSE_ERROR, `Parse error: ${(error as Error).message}`, { cause: error });
  }
}

function describe(error: FastifyError | JsonRpcBodyError): { statusCode: number; rpcCode: number; message: string } {
  if (error instanceof JsonRpcBodyError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { statusCode: 413, rpcCode: INVALID_REQUEST, message: 'Invalid Request: the request body is too large' };
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { statusCode: 415, rpcCode: UNSUPPORTED_MEDIA, message: 'Unsupported Media Type: Content-Type must be application/json' };
  const statusCode = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  return statusCode < 500 ? { statusCode, rpcCode: INVALID_REQUEST, message: `Invalid Request: ${error.message}` } : { statusCode, rpcCode: INTERNAL_ERROR, message: 'Internal error' };
}

/** Whether brackets outside strings nest deeper than `limit`: one pass, no parsing. */
function depthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}
