import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin/index.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './child-http.js';
import manifest from './manifest.js';
import { createRemoteChildTypes } from './remote-types.js';

/**
 * Remote children: servers the hub reaches rather than runs (Streamable HTTP, the old
 * HTTP+SSE, unix and TCP sockets). The credentials for an upstream that wants them are
 * lent by whichever plugin provides `upstreamAuth` (upstream-oauth), read at each connect.
 */
export default definePlugin({
  ...manifest,
  options: Type.Object(
    {
      bodyTimeoutMs: Type.Integer({
        minimum: 1,
        default: DEFAULT_BODY_TIMEOUT_MS,
        description: "How long an answer of an http or sse server may stay silent before it is cut off; a listen stream and a server's own event stream have no such limit.",
      }),
    },
    { additionalProperties: false },
  ),
  register(_app, options, hub) {
    const http = { bodyTimeoutMs: options.bodyTimeoutMs };
    for (const type of createRemoteChildTypes({ name: 'mcp-hub', version: hub.version }, () => hub.upstreamAuth.current, http)) hub.childTypes.add(type.type, type);
  },
});
