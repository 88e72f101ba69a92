import { definePlugin } from '../../core/plugin/index.js';
import type { ToolCallInterceptor } from '../../core/plugin/interceptor.js';
import { limitResult } from './limit.js';
import manifest from './manifest.js';
import { maxBytesFor, OutputLimitKey, OutputLimitOptions } from './options.js';

/** The outermost interceptor: the last to act on a result, after every other (a secret redacted before it is cut). */
const ORDER = 100;

/**
 * output-limit: an interceptor (`mcp-switchyard/plugin/interceptor`) that caps what a
 * tool result may put into a model's context, on every road.
 */
export default definePlugin({
  ...manifest,
  options: OutputLimitOptions,
  serverKeys: { outputLimit: OutputLimitKey },
  // Read from the entry at each use, so a reload applies a change at once.
  liveServerKeys: ['outputLimit'],
  register(_app, options, hub) {
    const interceptor: ToolCallInterceptor = {
      order: ORDER,
      findingKinds: ['cut', 'structured-over-limit'],
      after(call, result) {
        const maxBytes = maxBytesFor(options, call.server.entry.outputLimit);
        if (maxBytes === undefined) return undefined;
        const limited = limitResult(result, maxBytes, call.tool);
        if (!limited) return undefined;
        if ('refuse' in limited) return { refuse: limited.refuse, findings: ['structured-over-limit'] };
        return { result: limited.result, findings: ['cut'] };
      },
      // What a program returned (code mode's run_code) reaches the model like a tool's result: the plugin's own cap.
      afterHubTool(call, result) {
        const limited = limitResult(result, options.maxBytes, { name: call.tool, inputSchema: { type: 'object' } }, 'the limit');
        if (!limited) return undefined;
        if ('refuse' in limited) return { refuse: limited.refuse, findings: ['structured-over-limit'] };
        return { result: limited.result, findings: ['cut'] };
      },
    };
    hub.interceptors.add('output-limit', interceptor);
  },
});
