import { SUPPORTED_PROTOCOL_VERSIONS, type Client } from '@modelcontextprotocol/client';
import type { ChildWatching, ChildWire, RememberedNegotiation } from '../../core/plugin/revision.js';

/**
 * What the hub remembers of such a server is trusted for a day: an upgraded server still
 * answers `initialize`, so only age ever retires it (see the SDK's gateway guide).
 */
const REMEMBERED_MS = 24 * 60 * 60 * 1000;

function fresh(remembered: RememberedNegotiation, now: number): boolean {
  return now - remembered.at < REMEMBERED_MS;
}

/**
 * The revision toward a child that negotiated it with `initialize` (this revision or an
 * earlier one of its family, which the SDK's handshake speaks): pinged, list changes
 * arriving unasked, each watched resource a `resources/subscribe`, questions asked
 * mid-call on the held request.
 */
export function createChildWire(): ChildWire {
  return {
    speaks: (version) => SUPPORTED_PROTOCOL_VERSIONS.includes(version),
    probed: false,
    probe: (client, options) => client.ping(options),
    watch: subscriptions,
    repair: () => undefined,
    withoutIdentity: (result) => result,
    asksByResult: false,
    // A connect that reused a remembered negotiation keeps its date, so that age retires it.
    remember: (client, previous, now) => {
      const revision = client.getNegotiatedProtocolVersion() ?? '';
      return previous?.revision === revision && fresh(previous, now) ? previous : { revision, at: now };
    },
    prior: (remembered, now) => (fresh(remembered, now) ? { kind: 'legacy' } : undefined),
  };
}

/** A `resources/subscribe` per watched URI, and an unsubscribe when it is no longer watched. */
function subscriptions(client: Client): ChildWatching {
  const subscribed = new Set<string>();
  return {
    async update(uris) {
      const wanted = new Set(uris);
      for (const uri of wanted) {
        if (subscribed.has(uri)) continue;
        await client.subscribeResource({ uri });
        subscribed.add(uri);
      }
      for (const uri of subscribed) {
        if (wanted.has(uri)) continue;
        subscribed.delete(uri);
        await client.unsubscribeResource({ uri });
      }
    },
  };
}
