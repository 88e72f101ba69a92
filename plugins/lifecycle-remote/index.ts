import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { createRemoteChildTypes } from './remote-types.js';

/**
 * Remote children: servers the hub reaches rather than runs (Streamable HTTP, the old
 * HTTP+SSE, unix and TCP sockets). The credentials for an upstream that wants them are
 * lent by whichever plugin provides `upstreamAuth` (upstream-oauth), read at each connect.
 */
export default definePlugin({
  ...manifest,
  options: Type.Object({}, { additionalProperties: false }),
  register(_app, _options, hub) {
    for (const type of createRemoteChildTypes({ name: 'mcp-hub', version: hub.version }, () => hub.upstreamAuth.current)) hub.childTypes.add(type.type, type);
  },
});
