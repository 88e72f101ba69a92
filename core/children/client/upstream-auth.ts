import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import type { ServerEntry } from '../../config/schema.js';
import { HUB_ERROR_CODES, HubError } from '../../errors.js';

/**
 * What a plugin lends a remote (`http`/`sse`) child's transport so the hub can
 * authenticate to the upstream: an SDK `AuthProvider` (a token before every request, a
 * chance to refresh or log in on a 401) and optionally a wrapper around the fetch the
 * transport uses. Without one, a remote child sends only its static `headers`.
 */
export interface RemoteTransportAuth {
  authProvider: AuthProvider;
  wrapFetch?: (next: FetchLike) => FetchLike;
}

/**
 * Consulted each time a remote child connects. The upstream-oauth plugin sets one; it
 * answers undefined for servers it does not manage (no `oauth` key).
 */
export interface UpstreamAuth {
  forServer(name: string, entry: ServerEntry): RemoteTransportAuth | undefined;
}

/**
 * Thrown from an `AuthProvider` when only the operator can fix the credentials (a login
 * at the upstream). The child then shows status `unauthorized` instead of retrying.
 */
export class LoginRequiredError extends HubError {
  override readonly name = 'LoginRequiredError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(HUB_ERROR_CODES.LOGIN_REQUIRED, message, options);
  }
}
