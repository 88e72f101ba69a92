import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { Type, type Static } from 'typebox';
import type { Endpoints } from './endpoints.js';
import { OAuthError } from './errors.js';
import { isMetadataDocumentUrl, MetadataDocumentError, type MetadataDocumentFetcher } from './metadata-document.js';
import type { ClientMetadata, Collections } from './records.js';
import { KeywordParameter, SecretParameter, UrlParameter } from './validation.js';
import { hashSecret, secretMatches } from '../../core/plugin/auth.js';
import { DuplicateKeyError } from '../../core/plugin/store.js';

export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A client as the endpoints see it, whichever way it got its identity. */
export interface KnownClient {
  clientId: string;
  name: string;
  metadata: ClientMetadata;
}

/** The client credentials of a token or revocation request, from the form body only: fields of both bodies' schemas. */
export const ClientCredentialFields = {
  client_id: Type.Optional(UrlParameter),
  client_secret: Type.Optional(SecretParameter),
  client_assertion_type: Type.Optional(KeywordParameter),
  // A signed JWT: a few hundred bytes to a few kilobytes with a certificate chain in its header.
  client_assertion: Type.Optional(Type.String({ maxLength: 16_384 })),
};
export const ClientCredentials = Type.Object(ClientCredentialFields);
export type ClientCredentials = Static<typeof ClientCredentials>;

/** Finds clients (issued or metadata-document) and checks how they authenticate. */
export class ClientAuthenticator {
  constructor(
    private readonly c: Collections,
    private readonly documents: MetadataDocumentFetcher,
    private readonly endpoints: Endpoints,
  ) {}

  /** The client by id, or an `invalid_client` error. */
  async find(clientId: string): Promise<KnownClient> {
    if (isMetadataDocumentUrl(clientId)) {
      try {
        const document = await this.documents.get(clientId);
        return {
          clientId,
          name: document.client_name ?? new URL(clientId).host,
          metadata: {
            redirect_uris: document.redirect_uris,
            token_endpoint_auth_method: document.token_endpoint_auth_method ?? 'none',
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            ...(document.jwks ? { jwks: document.jwks } : {}),
          },
        };
      } catch (error) {
        if (error instanceof MetadataDocumentError) throw new OAuthError('invalid_client', error.message, 401, { cause: error });
        throw error;
      }
    }
    const record = await this.c.clients.findOne({ _id: clientId });
    if (!record) throw new OAuthError('invalid_client', 'unknown client', 401);
    return { clientId, name: record.metadata.client_name ?? clientId, metadata: record.metadata };
  }

  /**
   * Authenticates the client of a token or revocation request by the method it
   * registered. `client_secret_basic` is refused: credentials come from the form body.
   */
  async authenticate(credentials: ClientCredentials, authorizationHeader: string | undefined): Promise<KnownClient> {
    if (authorizationHeader) {
      throw new OAuthError('invalid_client', 'client credentials are read from the form body only (client_secret_basic is not supported)', 401);
    }
    const clientId = credentials.client_id ?? (credentials.client_assertion ? assertionIssuer(credentials.client_assertion) : undefined);
    if (!clientId) throw new OAuthError('invalid_client', 'client_id is missing', 401);
    const client = await this.find(clientId);
    const method = client.metadata.token_endpoint_auth_method;

    if (method === 'private_key_jwt') {
      if (credentials.client_assertion_type !== JWT_BEARER || !credentials.client_assertion) {
        throw new OAuthError('invalid_client', 'this client authenticates with private_key_jwt', 401);
      }
      await this.#verifyAssertion(client, credentials.client_assertion);
      return client;
    }
    if (credentials.client_assertion) throw new OAuthError('invalid_client', 'private_key_jwt is accepted from metadata-document clients only', 401);
    if (method === 'none') {
      if (credentials.client_secret) throw new OAuthError('invalid_client', 'this is a public client; it has no secret', 401);
      return client;
    }
    const record = await this.c.clients.findOne({ _id: clientId });
    if (!credentials.client_secret || !record?.secretHash || !secretMatches(credentials.client_secret, record.secretHash)) {
      throw new OAuthError('invalid_client', 'client authentication failed', 401);
    }
    return client;
  }

  /** RFC 7523: signed by a key of the document, for this hub, once only. */
  async #verifyAssertion(client: KnownClient, assertion: string): Promise<void> {
    const jwks = client.metadata.jwks;
    if (!jwks) throw new OAuthError('invalid_client', 'the client metadata document publishes no jwks', 401);
    let payload;
    try {
      ({ payload } = await jwtVerify(assertion, createLocalJWKSet(jwks), {
        issuer: client.clientId,
        subject: client.clientId,
        audience: [this.endpoints.token, this.endpoints.issuer],
        algorithms: ASSERTION_ALGORITHMS,
        requiredClaims: ['jti', 'exp'],
        maxTokenAge: '10 minutes',
      }));
    } catch (error) {
      throw new OAuthError('invalid_client', `client assertion refused: ${(error as Error).message}`, 401, { cause: error });
    }
    try {
      await this.c.seenAssertions.insertOne({
        _id: hashSecret(`${client.clientId} ${String(payload.jti)}`),
        expiresAt: new Date(((payload.exp ?? 0) + 60) * 1000),
      });
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new OAuthError('invalid_client', 'client assertion replayed (jti already used)', 401, { cause: error });
      throw error;
    }
  }
}

function assertionIssuer(assertion: string): string | undefined {
  try {
    const { iss } = decodeJwt(assertion);
    return iss;
  } catch {
    return undefined;
  }
}
