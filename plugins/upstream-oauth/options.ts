import { Type, type Static } from 'typebox';

export const UpstreamOAuthOptions = Type.Object(
  {
    allowLoopbackAuthorizationServers: Type.Boolean({
      default: false,
      description: 'Development only: lets discovery and token requests reach loopback addresses, over plain http too (a local authorization server). Off, only https on public addresses is fetched.',
    }),
  },
  { additionalProperties: false },
);
export type UpstreamOAuthOptions = Static<typeof UpstreamOAuthOptions>;

/** The `oauth` key of a server entry, as this plugin reads it (core types only `mode`, `clientId`, `clientAuth`). */
export const UpstreamOAuthEntry = Type.Object(
  {
    mode: Type.Union([Type.Literal('static'), Type.Literal('dcr'), Type.Literal('cimd')]),
    clientId: Type.Optional(Type.String({ minLength: 1 })),
    clientSecretEnv: Type.Optional(Type.String({ minLength: 1, description: 'Name of the environment variable holding the client secret (mode static).' })),
    clientAuth: Type.Optional(Type.Union([Type.Literal('client_secret_post'), Type.Literal('client_secret_basic'), Type.Literal('none'), Type.Literal('private_key_jwt')])),
    grant: Type.Optional(Type.Union([Type.Literal('authorization_code'), Type.Literal('client_credentials')], { description: 'Default authorization_code (an operator login).' })),
    scope: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type UpstreamOAuthEntry = Static<typeof UpstreamOAuthEntry>;

export type ClientAuthMethod = NonNullable<UpstreamOAuthEntry['clientAuth']>;
