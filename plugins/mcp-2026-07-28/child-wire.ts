import { SERVER_INFO_META_KEY, type Client, type DiscoverResult, type McpSubscription } from '@modelcontextprotocol/client';
import type { ChildWire } from '../../core/plugin/revision.js';

/**
 * The revision toward a child that negotiated it: probed with `server/discover` (the
 * revision has no ping), watched on one `subscriptions/listen` stream the hub opens
 * (re-opened when the watched URIs change), questions asked as results, the child's
 * identity stated on every result (the hub states its own instead). A result without
 * `resultType` is read as the complete result it evidently is, as the SDK reads every
 * result of the revisions before.
 */
export function createChildWire(revision: string): ChildWire {
  return {
    speaks: (version) => version === revision,
    probed: true,
    pinned: { mode: { pin: revision } },
    probe: (client, options) => client.discover(options),
    watch: (client, ended) => listenStream(client, ended),
    repair: (result) => ('resultType' in result ? undefined : { ...result, resultType: 'complete' }),
    plainResult: ({ resultType, ...rest }) => (resultType === 'complete' ? rest : undefined),
    withoutIdentity,
    asksByResult: true,
    remember: (client, _previous, now) => {
      const advertisement = client.getDiscoverResult() as Record<string, unknown> | undefined;
      return { revision, ...(advertisement && { advertisement }), at: now };
    },
    // The advertisement says what the server speaks; a stale one fails loudly at the first request.
    prior: (remembered) => (remembered.advertisement ? { kind: 'modern', discover: remembered.advertisement as DiscoverResult } : undefined),
  };
}

/**
 * One stream with everything the child can tell; replaced when the URIs change. Its end
 * unasked (the stream closed or was cut, or the child ended it) is told to `ended`.
 */
function listenStream(client: Client, ended: (reason: string) => void) {
  let subscription: McpSubscription | undefined;
  return {
    async update(uris: string[]): Promise<void> {
      const capabilities = client.getServerCapabilities();
      const filter = {
        ...(capabilities?.tools?.listChanged && { toolsListChanged: true }),
        ...(capabilities?.prompts?.listChanged && { promptsListChanged: true }),
        ...(capabilities?.resources?.listChanged && { resourcesListChanged: true }),
        ...(uris.length > 0 && { resourceSubscriptions: uris }),
      };
      const previous = subscription;
      const next = Object.keys(filter).length > 0 ? await client.listen(filter) : undefined;
      subscription = next;
      void next?.closed.then((how) => {
        if (how !== 'local' && subscription === next) ended(how === 'graceful' ? 'the server ended it' : 'its stream closed');
      });
      await previous?.close();
    },
  };
}

/** The answer without the child's identity in `_meta` (and without a `_meta` that held only that). */
function withoutIdentity<T extends { _meta?: Record<string, unknown> }>(result: T): T {
  if (!result._meta || !(SERVER_INFO_META_KEY in result._meta)) return result;
  const { [SERVER_INFO_META_KEY]: _childIdentity, ...meta } = result._meta;
  if (Object.keys(meta).length > 0) return { ...result, _meta: meta };
  const { _meta: _identityOnly, ...rest } = result;
  return rest as T;
}
