import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import type { Endpoints } from './endpoints.js';
import { OAuthError } from './errors.js';
import type { ClientMetadata, ClientRecord, Collections } from './records.js';
import { redirectUriProblem } from './redirects.js';
import type { TokenService } from './tokens.js';
import { CLIENT_TEXT_MAX, refusedAs, type Routes } from './validation.js';
import { addressKey, hashSecret, newSecret, secretMatches } from '../../core/plugin/auth.js';
import { firstSchemaProblem, HUB_ERROR_CODES, HubError, pointerToPath } from '../../core/plugin/index.js';
import { msUntilBelow, slidingEstimate, type WindowCounter } from '../../core/plugin/store.js';

const Uri = Type.String({ minLength: 1, maxLength: 2000 });
const Text = Type.String({ maxLength: CLIENT_TEXT_MAX });
const Names = Type.Array(Text, { maxItems: 10 });

/** RFC 7591 client metadata the hub accepts, each part bounded in size; unknown members are ignored. */
const RegistrationRequest = Type.Object({
  redirect_uris: Type.Array(Uri, { minItems: 1, maxItems: 10 }),
  token_endpoint_auth_method: Type.Optional(Text),
  grant_types: Type.Optional(Names),
  response_types: Type.Optional(Names),
  client_name: Type.Optional(Text),
  client_uri: Type.Optional(Uri),
  logo_uri: Type.Optional(Uri),
  scope: Type.Optional(Type.String({ maxLength: 1000 })),
  contacts: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 10 })),
  software_id: Type.Optional(Text),
  software_version: Type.Optional(Text),
  client_id: Type.Optional(Text),
  client_secret: Type.Optional(Text),
});

/** A registration request is a small JSON document: anything larger is refused unread. */
const REGISTRATION_BODY_LIMIT = 64 * 1024;
/** Registrations one address may make in an hour. */
export const REGISTRATIONS_PER_ADDRESS_HOUR = 20;

export interface RegistrationLimits {
  maxDynamicClients: number;
  unusedClientSeconds: number;
  /** Registrations per address, over an hour. */
  perAddress: WindowCounter;
}
type RegistrationRequest = Static<typeof RegistrationRequest>;

/** The client a management request names (an id the hub issued: well under this bound). */
const ManagementParams = Type.Object({ clientId: Type.String({ maxLength: 200 }) });
type ManagementParams = Static<typeof ManagementParams>;

/** Checks metadata `hub-admin clients add` puts together, then as `requestedMetadata` does. */
export function clientMetadata(body: unknown): ClientMetadata {
  const problem = firstSchemaProblem(RegistrationRequest, body);
  if (problem || !Value.Check(RegistrationRequest, body)) {
    throw new OAuthError('invalid_client_metadata', `${pointerToPath(problem?.path ?? '') || 'the request'}: expected ${problem?.expected ?? 'client metadata with redirect_uris'}`);
  }
  return requestedMetadata(body);
}

/** What the hub supports of metadata its schema admits, with defaults filled in. */
function requestedMetadata(body: RegistrationRequest): ClientMetadata {
  const method = body.token_endpoint_auth_method ?? 'client_secret_post';
  if (method !== 'none' && method !== 'client_secret_post') {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method ${method} is not supported; use client_secret_post or none`);
  }
  const grants = body.grant_types ?? ['authorization_code', 'refresh_token'];
  const unsupported = grants.find((grant) => grant !== 'authorization_code' && grant !== 'refresh_token');
  if (unsupported) throw new OAuthError('invalid_client_metadata', `grant type ${unsupported} is not supported`);
  for (const uri of body.redirect_uris) {
    const refused = redirectUriProblem(uri);
    if (refused) throw new OAuthError('invalid_redirect_uri', refused);
  }
  const { redirect_uris, client_name, client_uri, logo_uri, scope, contacts, software_id, software_version } = body;
  return {
    redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: grants,
    response_types: ['code'],
    ...definedOnly({ client_name, client_uri, logo_uri, scope, contacts, software_id, software_version }),
  };
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export interface IssuedClient {
  record: ClientRecord;
  secret?: string;
  registrationToken?: string;
}

/** Creates a client the hub issues (operator or dynamic; a dynamic one not used by `expiresAt` is deleted). */
export async function issueClient(c: Collections, metadata: ClientMetadata, source: ClientRecord['source'], expiresAt?: Date): Promise<IssuedClient> {
  const secret = metadata.token_endpoint_auth_method === 'none' ? undefined : newSecret('hcs');
  const registrationToken = source === 'dynamic' ? newSecret('hrat') : undefined;
  const record: ClientRecord = {
    _id: `${source === 'operator' ? 'hco' : 'hcd'}_${randomUUID()}`,
    source,
    metadata,
    issuedAt: Math.floor(Date.now() / 1000),
    ...(secret ? { secretHash: hashSecret(secret) } : {}),
    ...(registrationToken ? { registrationTokenHash: hashSecret(registrationToken) } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
  await c.clients.insertOne(record);
  return { record, ...(secret ? { secret } : {}), ...(registrationToken ? { registrationToken } : {}) };
}

/**
 * Dynamic registration (RFC 7591) and its management (RFC 7592). Anyone may register, so
 * what registrations can grow is bounded: per address an hour, in total, and in time (a
 * registration that never obtains a token goes after `unusedClientSeconds`).
 */
export function registerRegistration(app: Routes, c: Collections, endpoints: Endpoints, tokens: TokenService, limits: RegistrationLimits): void {
  const response = (record: ClientRecord, extra: { secret?: string; registrationToken?: string } = {}) => ({
    client_id: record._id,
    client_id_issued_at: record.issuedAt,
    ...(extra.secret ? { client_secret: extra.secret, client_secret_expires_at: 0 } : {}),
    ...(extra.registrationToken ? { registration_access_token: extra.registrationToken } : {}),
    registration_client_uri: `${endpoints.registration}/${encodeURIComponent(record._id)}`,
    ...record.metadata,
  });

  // RFC 7591 section 3.2.2: metadata the schema refuses is invalid_client_metadata; the route parameter is the request's.
  const refused = refusedAs('invalid_client_metadata');
  const invalid = refusedAs('invalid_request');
  const schemaErrorFormatter: typeof refused = (errors, part) => (part === 'body' ? refused : invalid)(errors, part);

  app.post('/register', { bodyLimit: REGISTRATION_BODY_LIMIT, schema: { body: RegistrationRequest }, schemaErrorFormatter }, async (request, reply) => {
    const metadata = requestedMetadata(request.body);
    const address = addressKey(request.ip);
    const count = await limits.perAddress.count(address);
    if (slidingEstimate(count) >= REGISTRATIONS_PER_ADDRESS_HOUR) {
      const seconds = Math.max(1, Math.ceil(msUntilBelow(REGISTRATIONS_PER_ADDRESS_HOUR, count) / 1000));
      return unavailable(reply, 429, seconds, `at most ${REGISTRATIONS_PER_ADDRESS_HOUR} registrations an hour from one address`);
    }
    if ((await c.clients.countDocuments({ source: 'dynamic' })) >= limits.maxDynamicClients) {
      return unavailable(reply, 503, 3600, 'the hub holds as many registered clients as it allows; unused registrations expire');
    }
    limits.perAddress.add(address);
    const issued = await issueClient(c, metadata, 'dynamic', new Date(Date.now() + limits.unusedClientSeconds * 1000));
    return reply.code(201).header('cache-control', 'no-store').send(response(issued.record, issued));
  });

  /**
   * RFC 7592: the registration access token, as a bearer, names the one client it manages.
   * Checked when the request arrives, before its body is read or validated: a caller
   * without the token learns nothing about what it sent.
   */
  const managedClients = new WeakMap<FastifyRequest, ClientRecord>();
  async function authenticateManagement(request: FastifyRequest<{ Params: ManagementParams }>): Promise<void> {
    const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const record = await c.clients.findOne({ _id: request.params.clientId });
    if (!token || !record?.registrationTokenHash || !secretMatches(token, record.registrationTokenHash)) {
      throw new OAuthError('invalid_token', 'a valid registration access token is required', 401);
    }
    managedClients.set(request, record);
  }
  function managed(request: FastifyRequest): ClientRecord {
    const record = managedClients.get(request);
    if (!record) throw new HubError(HUB_ERROR_CODES.INTERNAL, 'a registration management route ran without its onRequest check');
    return record;
  }
  const management = { onRequest: authenticateManagement, schema: { params: ManagementParams } };

  app.get('/register/:clientId', management, async (request, reply) => {
    return reply.header('cache-control', 'no-store').send(response(managed(request)));
  });

  app.put(
    '/register/:clientId',
    { ...management, bodyLimit: REGISTRATION_BODY_LIMIT, schema: { params: ManagementParams, body: RegistrationRequest }, schemaErrorFormatter },
    async (request, reply) => {
      const record = managed(request);
      const body = request.body;
      if (body.client_id !== record._id) throw new OAuthError('invalid_request', 'client_id in the body must be the client being updated');
      if (body.client_secret !== undefined && (!record.secretHash || !secretMatches(body.client_secret, record.secretHash))) {
        throw new OAuthError('invalid_request', 'client_secret does not match');
      }
      const metadata = requestedMetadata(body);
      if ((metadata.token_endpoint_auth_method === 'none') !== (record.metadata.token_endpoint_auth_method === 'none')) {
        throw new OAuthError('invalid_client_metadata', 'a client cannot switch between public and confidential');
      }
      const updated = await c.clients.findOneAndUpdate({ _id: record._id }, { $set: { metadata } });
      return reply.header('cache-control', 'no-store').send(response(updated ?? record));
    },
  );

  app.delete('/register/:clientId', management, async (request, reply) => {
    const record = managed(request);
    await c.clients.deleteOne({ _id: record._id });
    await tokens.revokeClient(record._id);
    return reply.code(204).send();
  });
}

function unavailable(reply: FastifyReply, status: 429 | 503, retryAfterSeconds: number, description: string): FastifyReply {
  return reply.code(status).header('retry-after', String(retryAfterSeconds)).header('cache-control', 'no-store').send({ error: 'temporarily_unavailable', error_description: description });
}
