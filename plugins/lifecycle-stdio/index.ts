import { Type } from 'typebox';
import { createStdioChildType } from './stdio-type.js';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';

export const LifecycleStdioOptions = Type.Object(
  {
    versionNegotiation: Type.Union([Type.Literal('legacy'), Type.Literal('auto')], {
      default: 'legacy',
      description: 'legacy: the 2025 initialize handshake, no probe. auto: probe once with server/discover (a short-lived sibling process) and remember the verdict.',
    }),
    stderrMaxLineLength: Type.Integer({ minimum: 1, default: 1000, description: 'Longer stderr lines are cut in the hub log.' }),
    stderrLinesPerMinute: Type.Integer({ minimum: 1, default: 300, description: 'Per server; further stderr lines are dropped and counted.' }),
  },
  { additionalProperties: false },
);

export default definePlugin({
  ...manifest,
  options: LifecycleStdioOptions,
  register(_app, options, hub) {
    hub.childTypes.add(
      'stdio',
      createStdioChildType({
        clientInfo: { name: 'mcp-hub', version: hub.version },
        configDirectory: hub.configDirectory,
        negotiation: options.versionNegotiation,
        stderr: { maxLineLength: options.stderrMaxLineLength, linesPerMinute: options.stderrLinesPerMinute },
      }),
    );
  },
});
