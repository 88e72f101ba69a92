import type { AddClientAuthentication } from '@modelcontextprotocol/client';
import { UPSTREAM_OAUTH_ERROR_CODES } from './errors.js';
import type { UpstreamKey } from './key.js';
import type { ClientAuthMethod } from './options.js';
import type { UpstreamClient } from './records.js';
import { HubError } from '../../core/plugin/index.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * Puts the configured client authentication on a request to the upstream's token or
 * revocation endpoint, always the configured method (the SDK would otherwise pick one
 * from what the server advertises).
 */
export function clientAuthentication(method: ClientAuthMethod, client: () => Promise<UpstreamClient | undefined>, key: UpstreamKey): AddClientAuthentication {
  return async (headers, params, url, metadata) => {
    const info = await client();
    if (!info) throw new HubError(UPSTREAM_OAUTH_ERROR_CODES.NO_CLIENT, 'no client identity at the upstream yet');
    const id = info.client_id;
    switch (method) {
      case 'client_secret_basic': {
        // RFC 6749 2.3.1: each part form-encoded before base64.
        const credentials = `${encodeURIComponent(id)}:${encodeURIComponent(info.client_secret ?? '')}`;
        headers.set('authorization', `Basic ${Buffer.from(credentials).toString('base64')}`);
        params.delete('client_id');
        return;
      }
      case 'client_secret_post':
        params.set('client_id', id);
        params.set('client_secret', info.client_secret ?? '');
        return;
      case 'none':
        params.set('client_id', id);
        return;
      case 'private_key_jwt':
        params.set('client_id', id);
        params.set('client_assertion_type', JWT_BEARER);
        params.set('client_assertion', await key.assertion(id, metadata?.issuer ?? String(url)));
        return;
    }
  };
}
