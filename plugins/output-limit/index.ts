import { definePlugin } from '../../core/plugin/index.js';
import type { InterceptedCall, ToolCallInterceptor } from '../../core/plugin/interceptor.js';
import { limitError, limitResult, notificationBytes, type SentBefore } from './limit.js';
import manifest from './manifest.js';
import { maxBytesFor, OutputLimitKey, OutputLimitOptions } from './options.js';

/** The outermost interceptor: the last to act on a result, after every other (a secret redacted before it is cut). */
const ORDER = 100;
/** A child's error keeps at least this much of its message, whatever the call's notifications took: the caller must learn why it failed. */
const MIN_ERROR_BYTES = 256;

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
    // What each call's notifications took of its limit: the result gets what is left.
    const sentBefore = new WeakMap<InterceptedCall, SentBefore>();
    const interceptor: ToolCallInterceptor = {
      order: ORDER,
      findingKinds: ['cut', 'structured-over-limit', 'notification-dropped'],
      duringCall(call, notification) {
        const maxBytes = maxBytesFor(options, call.server.entry.outputLimit);
        if (maxBytes === undefined) return undefined;
        let sent = sentBefore.get(call);
        if (!sent) sentBefore.set(call, (sent = { bytes: 0, dropped: 0 }));
        const bytes = notificationBytes(notification.params);
        if (sent.bytes + bytes > maxBytes) {
          sent.dropped += 1;
          return { drop: true, findings: ['notification-dropped'] };
        }
        sent.bytes += bytes;
        return undefined;
      },
      afterError(call, error) {
        const maxBytes = maxBytesFor(options, call.server.entry.outputLimit);
        if (maxBytes === undefined) return undefined;
        const limited = limitError(error, Math.max(MIN_ERROR_BYTES, maxBytes - (sentBefore.get(call)?.bytes ?? 0)));
        return limited && { ...limited, findings: ['cut'] };
      },
      after(call, result) {
        const maxBytes = maxBytesFor(options, call.server.entry.outputLimit);
        if (maxBytes === undefined) return undefined;
        const limited = limitResult(result, maxBytes, call.tool, undefined, sentBefore.get(call));
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
