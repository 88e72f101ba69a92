import type { FetchLike } from '@modelcontextprotocol/client';
import { LRUCache } from 'lru-cache';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import { OAUTH_ERROR_CODES } from './errors.js';
import { redirectUriProblem } from './redirects.js';
import { CLIENT_TEXT_MAX } from './validation.js';
import { BlockedRequestError, FetchLimitError, guardedFetch } from '../../core/plugin/auth.js';
import { HubError } from '../../core/plugin/index.js';

const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5_000;
const MAX_CACHE_SECONDS = 24 * 3600;
/** Anyone can name a document URL: what is kept of them is bounded, in documents and in their bytes. */
const MAX_CACHED_DOCUMENTS = 1000;
const MAX_CACHED_BYTES = 4 * 1024 * 1024;

/** The fields of a client ID metadata document the hub uses; others are ignored. */
export const MetadataDocument = Type.Object({
  client_id: Type.String(),
  redirect_uris: Type.Array(Type.String(), { minItems: 1 }),
  client_name: Type.Optional(Type.String({ maxLength: CLIENT_TEXT_MAX })),
  client_uri: Type.Optional(Type.String()),
  logo_uri: Type.Optional(Type.String()),
  token_endpoint_auth_method: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('private_key_jwt')])),
  jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) })),
  scope: Type.Optional(Type.String()),
});
export type MetadataDocument = Static<typeof MetadataDocument>;

/** Why a client ID metadata document cannot be used; a failed fetch is its `cause`. */
export class MetadataDocumentError extends HubError {
  override readonly name = 'MetadataDocumentError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(OAUTH_ERROR_CODES.METADATA_DOCUMENT, message, options);
  }
}

/** Whether a client_id is a metadata-document URL rather than an id the hub issued. */
export function isMetadataDocumentUrl(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

/**
 * Fetches client ID metadata documents (draft-ietf-oauth-client-id-metadata-document-00)
 * through the hub's guarded fetch (public addresses only, loopback too when the dev switch
 * says so; no redirects; size and time limits), checks what they say, and caches them as
 * the response's caching headers allow, the least recently used leaving first.
 */
export class MetadataDocumentFetcher {
  readonly #cache = new LRUCache<string, MetadataDocument>({ max: MAX_CACHED_DOCUMENTS, maxSize: MAX_CACHED_BYTES });
  readonly #guarded: FetchLike;

  constructor(private readonly allowLoopback: boolean) {
    this.#guarded = guardedFetch({ allowLoopback, maxBytes: MAX_BYTES, timeoutMs: TIMEOUT_MS });
  }

  async get(clientId: string): Promise<MetadataDocument> {
    const cached = this.#cache.get(clientId);
    if (cached) return cached;
    const url = this.#checkUrl(clientId);
    const { body, maxAge } = await this.#fetch(url);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new MetadataDocumentError('the client metadata document is not JSON', { cause: error });
    }
    const name = (parsed as { client_name?: unknown } | null)?.client_name;
    if (typeof name === 'string' && name.length > CLIENT_TEXT_MAX) throw new MetadataDocumentError(`the client metadata document's client_name is longer than ${CLIENT_TEXT_MAX} characters`);
    if (!Value.Check(MetadataDocument, parsed)) throw new MetadataDocumentError('the client metadata document lacks client_id or redirect_uris, or has fields of the wrong type');
    if (parsed.client_id !== clientId) throw new MetadataDocumentError("the client metadata document's client_id is not its own URL");
    const unsafe = parsed.redirect_uris.map(redirectUriProblem).find((problem) => problem !== undefined);
    if (unsafe) throw new MetadataDocumentError(`the client metadata document names a redirect URI that is not allowed: ${unsafe}`);
    if (maxAge > 0) this.#cache.set(clientId, parsed, { ttl: maxAge * 1000, size: clientId.length + body.length });
    return parsed;
  }

  #checkUrl(clientId: string): URL {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch (error) {
      throw new MetadataDocumentError('the client_id is not a URL', { cause: error });
    }
    const loopbackHttp = url.protocol === 'http:' && this.allowLoopback;
    if (url.protocol !== 'https:' && !loopbackHttp) throw new MetadataDocumentError('a metadata-document client_id must be an https URL');
    if (url.pathname === '/' || url.username || url.password || url.hash) {
      throw new MetadataDocumentError('a metadata-document client_id must have a path and no credentials or fragment');
    }
    return url;
  }

  async #fetch(url: URL): Promise<{ body: string; maxAge: number }> {
    let response: Response;
    try {
      response = await this.#guarded(url, { headers: { accept: 'application/json' } });
    } catch (error) {
      const reason = (error as Error).message;
      const refused = error instanceof BlockedRequestError || error instanceof FetchLimitError;
      throw new MetadataDocumentError(refused ? `the client metadata document: ${reason}` : `fetching the client metadata document failed: ${reason}`, { cause: error });
    }
    const status = response.status;
    if (status !== 200) {
      throw new MetadataDocumentError(`fetching the client metadata document answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`);
    }
    return { body: await response.text(), maxAge: cacheSeconds(response.headers.get('cache-control') ?? undefined) };
  }
}

/** Seconds the document may be reused, from Cache-Control; nothing cached without it. */
function cacheSeconds(header: string | undefined): number {
  if (!header || /(?:^|,)\s*(?:no-store|no-cache|private)\b/i.test(header)) return 0;
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(header);
  return maxAge?.[1] ? Math.min(Number(maxAge[1]), MAX_CACHE_SECONDS) : 0;
}
