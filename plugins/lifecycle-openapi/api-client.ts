import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FetchLike } from '@modelcontextprotocol/client';
import { mapJsonStrings } from '../../core/plugin/interceptor.js';
import type { RemoteTransportAuth } from '../../core/plugin/child-type.js';
import { answerOf, type AnswerLimits } from './answer.js';
import { OPENAPI_ERROR_CODES, OpenApiError } from './errors.js';
import type { PlannedRequest } from './request.js';
import type { OperationTool } from './tools.js';

export interface ApiClientOptions extends AnswerLimits {
  server: string;
  requestTimeoutMs: number;
  maxAnswerBytes: number;
  /** Credentials lent by the plugin that provides `upstreamAuth` (upstream-oauth), if it manages this server. */
  auth: RemoteTransportAuth | undefined;
  /** For the credentials' discovery, where the API lives. */
  base: URL;
  /** The entry's configured header values (credentials): never relayed to a caller. */
  headerValues: string[];
}

/** A configured header value shorter than this is no credential (`on`, `1`): redacting it would mangle the text around it. */
const MIN_SECRET_LENGTH = 8;
const REDACTED = '[REDACTED]';

/** The answer was larger than `maxAnswerBytes`. */
class TooLarge extends Error {}

/**
 * The HTTP side of one `openapi` server: kept-alive connections to the API's origin
 * (undici, never redirected), every answer read whole within a deadline and a size cap,
 * and the upstream credentials, refreshed once on a 401 as the remote types do.
 */
export class ApiClient {
  readonly #fetch: FetchLike;
  readonly #close: () => Promise<void>;

  private constructor(
    private readonly options: ApiClientOptions,
    fetch: FetchLike,
    close: () => Promise<void>,
  ) {
    this.#fetch = options.auth?.wrapFetch ? options.auth.wrapFetch(fetch) : fetch;
    this.#close = close;
    this.#secrets = secretsOf(options.headerValues);
  }

  readonly #secrets: string[];

  static async open(options: ApiClientOptions): Promise<ApiClient> {
    // Imported by the first openapi server: a hub without one never loads undici for it.
    const { Agent, request } = await import('undici');
    const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 });
    const fetch: FetchLike = async (input, init) => {
      const answer = await request(String(input), {
        method: (init?.method ?? 'GET') as 'GET',
        headers: Object.fromEntries(new Headers(init?.headers)),
        body: (init?.body as string | undefined) ?? null,
        signal: init?.signal ?? null,
        dispatcher: agent,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > options.maxAnswerBytes) {
          answer.body.destroy();
          throw new TooLarge();
        }
        chunks.push(chunk);
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
      }
      const empty = answer.statusCode === 204 || answer.statusCode === 304 || init?.method === 'HEAD' || answer.statusCode < 200;
      return new Response(empty ? null : Buffer.concat(chunks), { status: answer.statusCode, headers });
    };
    return new ApiClient(options, fetch, () => agent.close());
  }

  /** One call of an operation: a tool result, never a throw (connection failures included). */
  async call(planned: OperationTool, request: PlannedRequest, signal: AbortSignal): Promise<CallToolResult> {
    const label = planned.operation.label;
    const tokens: string[] = [];
    let response: Response;
    try {
      response = await this.#send(request, signal, tokens);
      if (response.status === 401 && this.options.auth?.authProvider.onUnauthorized) {
        await this.options.auth.authProvider.onUnauthorized({ response, serverUrl: this.options.base, fetchFn: this.#fetch });
        response = await this.#send(request, signal, tokens);
      }
    } catch (error) {
      return this.#redacted(failure(this.#describeFailure(label, request.url, error, signal)), tokens);
    }
    return this.#redacted(answerOf(planned, request.url, response.status, response.headers, Buffer.from(await response.arrayBuffer()), this.options), tokens);
  }

  /**
   * Issue 54.7: an upstream may echo the credentials it was sent (an error quoting the
   * request). The configured header values, and the bearer tokens this call sent, are
   * replaced in every string of the result, keys and structure included.
   */
  #redacted(result: CallToolResult, tokens: string[]): CallToolResult {
    const secrets = tokens.length === 0 ? this.#secrets : secretsOf([...this.options.headerValues, ...tokens]);
    if (secrets.length === 0) return result;
    return mapJsonStrings(result, (text) => (secrets.some((secret) => text.includes(secret)) ? secrets.reduce((redacted, secret) => redacted.replaceAll(secret, REDACTED), text) : text));
  }

  /** The one request of `hub check --connect` and of every connect: any HTTP answer means the API is there. */
  async probe(signal: AbortSignal): Promise<number> {
    try {
      const response = await this.#send({ url: this.options.base, method: 'HEAD', headers: {}, body: undefined }, signal);
      return response.status;
    } catch (error) {
      throw new OpenApiError(OPENAPI_ERROR_CODES.API_UNREACHABLE, this.#describeFailure(`HEAD ${this.options.base.pathname}`, this.options.base, error, signal), { cause: error });
    }
  }

  async close(): Promise<void> {
    await this.#close();
  }

  async #send(request: PlannedRequest, signal: AbortSignal, tokens: string[] = []): Promise<Response> {
    const headers = new Headers(request.headers);
    const token = await this.options.auth?.authProvider.token();
    if (token !== undefined) {
      headers.set('authorization', `Bearer ${token}`);
      tokens.push(token);
    }
    const deadline = AbortSignal.timeout(this.options.requestTimeoutMs);
    return this.#fetch(request.url, { method: request.method, headers, ...(request.body !== undefined && { body: request.body }), signal: AbortSignal.any([signal, deadline]) });
  }

  #describeFailure(label: string, url: URL, error: unknown, signal: AbortSignal): string {
    const server = `server "${this.options.server}"`;
    if (error instanceof TooLarge) return `${server}: ${label} answered more than ${this.options.maxAnswerBytes} bytes; the answer was dropped`;
    if (signal.aborted) return `${server}: ${label} was cancelled`;
    const name = (error as Error | undefined)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return `${server}: ${label} got no complete answer from ${url.origin} within ${this.options.requestTimeoutMs / 1000} s`;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = (error as NodeJS.ErrnoException).code ?? cause?.code;
    return `${server}: ${label} could not reach ${url.origin}${code ? ` (${code})` : ''}: ${(error as Error).message}`;
  }
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The strings to redact, longest first: each value, or the credential after its auth scheme (`Bearer abc...` gives `abc...`, wherever it is quoted). */
function secretsOf(values: string[]): string[] {
  const secrets = new Set<string>();
  for (const value of values) secrets.add(/^[A-Za-z][\w-]*\s+(\S+)$/.exec(value.trim())?.[1] ?? value.trim());
  return [...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}
