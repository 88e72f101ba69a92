import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { createCallerWire } from './caller-wire.js';
import { createChildWire } from './child-wire.js';

const REVISION = '2025-11-25';

/**
 * MCP 2025-11-25 on every endpoint, statelessly, chosen by `initialize`, and toward every
 * child that speaks it (or an earlier revision of its family). Nothing is pushed to
 * callers on this revision: no list-changed or resource-updated notifications, no
 * `resources/subscribe`, no elicitation. Structured output must be an object here, so a
 * child's non-object output schema and value are wrapped under the single key `result`.
 */
export default definePlugin({
  ...manifest,
  options: Type.Object(
    {
      callers: Type.Boolean({
        default: true,
        description: 'false speaks the revision (and the ones before it) to children only: callers asking for it are refused.',
      }),
    },
    { additionalProperties: false },
  ),
  register(_app, options, hub) {
    hub.revisions.add(REVISION, { revision: REVISION, ...(options.callers && { callers: createCallerWire(REVISION) }), child: createChildWire() });
  },
});
