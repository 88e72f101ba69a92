import t from 'tap';
import { HubError } from '../../../core/errors.js';
import { OAUTH_ERROR_CODES, OAuthError } from '../../../plugins/oauth-as/errors.js';

t.test('an OAuthError carries the code of its OAuth error, and answers with the RFC body', async (t) => {
  const cause = new Error('jti already used');
  const error = new OAuthError('invalid_client', 'client assertion replayed', 401, { cause });
  t.ok(error instanceof OAuthError && error instanceof HubError);
  t.match(error, { name: 'OAuthError', code: 'HUB_ERR_OAUTH_INVALID_CLIENT', oauthError: 'invalid_client', status: 401, message: 'client assertion replayed' });
  t.equal(error.cause, cause);
  t.same(error.body, { error: 'invalid_client', error_description: 'client assertion replayed' });
  t.equal(new OAuthError('invalid_grant', 'spent').status, 400, 'a client error by default');
  for (const name of [
    'invalid_request',
    'invalid_grant',
    'invalid_target',
    'invalid_client_metadata',
    'invalid_redirect_uri',
    'invalid_token',
    'unauthorized_client',
    'unsupported_grant_type',
  ] as const) {
    t.equal(new OAuthError(name, 'x').code, OAUTH_ERROR_CODES[name]);
    t.equal(OAUTH_ERROR_CODES[name], `HUB_ERR_OAUTH_${name.toUpperCase()}`, name);
  }
});
