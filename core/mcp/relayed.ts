import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';

/**
 * A child's answer as the hub's: its own cache hints and `_meta` stay, but the server
 * identity in `_meta` is dropped, so the endpoint's own is stamped in its place.
 */
export function relayed<T extends { _meta?: Record<string, unknown> }>(result: T): T {
  if (!result._meta || !(SERVER_INFO_META_KEY in result._meta)) return result;
  const { [SERVER_INFO_META_KEY]: _childIdentity, ...meta } = result._meta;
  if (Object.keys(meta).length > 0) return { ...result, _meta: meta };
  const { _meta: _identityOnly, ...rest } = result;
  return rest as T;
}
