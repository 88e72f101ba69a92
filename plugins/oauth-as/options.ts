import { Type, type Static } from 'typebox';

export const OAuthAsOptions = Type.Object(
  {
    dynamicRegistration: Type.Boolean({ default: true, description: 'Serve POST /register (RFC 7591) and registration management (RFC 7592).' }),
    accessTokenSeconds: Type.Integer({ minimum: 60, default: 3600, description: 'Lifetime of an access token.' }),
    refreshTokenSeconds: Type.Integer({ minimum: 60, default: 30 * 24 * 3600, description: 'Lifetime of a refresh-token family, counted from the login.' }),
    authorizationCodeSeconds: Type.Integer({ minimum: 10, maximum: 600, default: 60, description: 'Lifetime of an authorization code.' }),
    maxDynamicClients: Type.Integer({
      minimum: 1,
      default: 10_000,
      description: 'Dynamically registered clients kept at most; beyond it POST /register answers 503 until unused registrations expire.',
    }),
    unusedClientSeconds: Type.Integer({
      minimum: 60,
      default: 24 * 3600,
      description: 'A dynamic registration that has not obtained a token within this time is deleted.',
    }),
    refreshRetrySeconds: Type.Integer({
      minimum: 0,
      default: 120,
      description: 'A refresh request repeated within this time, whose new refresh token has not been used, gets the same answer again (its answer was lost); 0: any reuse revokes the family.',
    }),
    allowLoopbackMetadataDocuments: Type.Boolean({
      default: false,
      description: 'Development only: allow client metadata documents on loopback addresses (and over http there).',
    }),
  },
  { additionalProperties: false },
);
export type OAuthAsOptions = Static<typeof OAuthAsOptions>;
