import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { createModernRevision } from './revision.js';

export const REVISION = '2026-07-28';

/**
 * MCP 2026-07-28 on every endpoint and toward every child that speaks it: stateless,
 * chosen by `server/discover`. List changes and resource updates reach clients on
 * `subscriptions/listen` streams; `resources/subscribe` is gone from the revision, so a
 * child's subscribe capability is re-advertised to say that a listen filter may name
 * resource URIs.
 */
export default definePlugin({
  ...manifest,
  options: Type.Object(
    {
      elicitation: Type.Boolean({
        default: true,
        description: "The operator's switch: false keeps every child's question from reaching callers, so children take their own fallback.",
      }),
      callers: Type.Boolean({
        default: true,
        description: 'false speaks the revision to children only: callers asking for it are refused.',
      }),
    },
    { additionalProperties: false },
  ),
  register(_app, options, hub) {
    const revision = createModernRevision(REVISION, { elicitation: options.elicitation });
    hub.revisions.add(REVISION, options.callers ? revision : { revision: REVISION, child: revision.child });
  },
});
