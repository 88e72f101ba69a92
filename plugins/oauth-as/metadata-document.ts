import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';

const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5_000;
const MAX_CACHE_SECONDS = 24 * 3600;

/** The fields of a client ID metadata document the hub uses; others are ignored. */
export const MetadataDocument = Type.Object({
  client_id: Type.String(),
  redirect_uris: Type.Array(Type.String(), { minItems: 1 }),
  client_name: Type.Optional(Type.String()),
  client_uri: Type.Optional(Type.String()),
  logo_uri: Type.Optional(Type.String()),
  token_endpoint_auth_method: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('private_key_jwt')])),
  jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) })),
  scope: Type.Optional(Type.String()),
});
export type MetadataDocument = Static<typeof MetadataDocument>;

export class MetadataDocumentError extends Error {
  override readonly name = 'MetadataDocumentError';
}

/** Whether a client_id is a metadata-document URL rather than an id the hub issued. */
export function isMetadataDocumentUrl(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

/**
 * Fetches client ID metadata documents (draft-ietf-oauth-client-id-metadata-document-00)
 * without becoming a tool for reaching the hub's own network: only public unicast
 * addresses (loopback too when the dev switch says so), checked on the address actually
 * connected to, so DNS rebinding cannot slip past; no redirects; a size and time limit;
 * and a cache that follows the response's caching headers.
 */
export class MetadataDocumentFetcher {
  readonly #cache = new Map<string, { document: MetadataDocument; until: number }>();

  constructor(private readonly allowLoopback: boolean) {}

  async get(clientId: string): Promise<MetadataDocument> {
    const cached = this.#cache.get(clientId);
    if (cached && cached.until > Date.now()) return cached.document;
    const url = this.#checkUrl(clientId);
    const { body, maxAge } = await this.#fetch(url);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new MetadataDocumentError('the client metadata document is not JSON');
    }
    if (!Value.Check(MetadataDocument, parsed)) throw new MetadataDocumentError('the client metadata document lacks client_id or redirect_uris, or has fields of the wrong type');
    if (parsed.client_id !== clientId) throw new MetadataDocumentError('the client metadata document\'s client_id is not its own URL');
    if (maxAge > 0) this.#cache.set(clientId, { document: parsed, until: Date.now() + maxAge * 1000 });
    return parsed;
  }

  #checkUrl(clientId: string): URL {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      throw new MetadataDocumentError('the client_id is not a URL');
    }
    const loopbackHttp = url.protocol === 'http:' && this.allowLoopback;
    if (url.protocol !== 'https:' && !loopbackHttp) throw new MetadataDocumentError('a metadata-document client_id must be an https URL');
    if (url.pathname === '/' || url.username || url.password || url.hash) {
      throw new MetadataDocumentError('a metadata-document client_id must have a path and no credentials or fragment');
    }
    // Node connects to an IP literal without calling `lookup`, so check literals here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(literal)) {
      if (!allowedAddress(literal, this.allowLoopback)) throw new MetadataDocumentError(`the client metadata document's host is a non-public address (${literal})`);
      if (url.protocol === 'http:' && ipaddr.process(literal).range() !== 'loopback') throw new MetadataDocumentError('plain http is allowed for loopback metadata documents only');
    }
    return url;
  }

  #fetch(url: URL): Promise<{ body: string; maxAge: number }> {
    const allowLoopback = this.allowLoopback;
    const plainHttp = url.protocol === 'http:';
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 4);
        const list = addresses as unknown as { address: string; family: number }[];
        const refused = list.find(({ address }) => !allowedAddress(address, allowLoopback));
        if (refused || list.length === 0) {
          return callback(new MetadataDocumentError(`the client metadata document's host resolves to a non-public address (${refused?.address ?? 'none'})`), '', 4);
        }
        if (plainHttp && !list.every(({ address }) => ipaddr.process(address).range() === 'loopback')) {
          return callback(new MetadataDocumentError('plain http is allowed for loopback metadata documents only'), '', 4);
        }
        if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
        const first = list[0] as { address: string; family: number };
        callback(null, first.address, first.family);
      });
    };
    const client = plainHttp ? http : https;
    return new Promise((resolve, reject) => {
      const request = client.get(url, { lookup, timeout: TIMEOUT_MS, headers: { accept: 'application/json' } }, (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          return reject(new MetadataDocumentError(`fetching the client metadata document answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`));
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > MAX_BYTES) {
          response.destroy();
          return reject(new MetadataDocumentError('the client metadata document is too large'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) {
            response.destroy();
            reject(new MetadataDocumentError('the client metadata document is too large'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8'), maxAge: cacheSeconds(response.headers['cache-control']) }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new MetadataDocumentError('fetching the client metadata document timed out')));
      request.on('error', (error) => reject(error instanceof MetadataDocumentError ? error : new MetadataDocumentError(`fetching the client metadata document failed: ${error.message}`)));
    });
  }
}

/** Public unicast only; loopback when allowed. Private, link-local and the rest never. */
export function allowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** Seconds the document may be reused, from Cache-Control; nothing cached without it. */
function cacheSeconds(header: string | undefined): number {
  if (!header || /(?:^|,)\s*(?:no-store|no-cache|private)\b/i.test(header)) return 0;
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(header);
  return maxAge?.[1] ? Math.min(Number(maxAge[1]), MAX_CACHE_SECONDS) : 0;
}
