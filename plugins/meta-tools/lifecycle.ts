import { findServer } from './lookup.js';
import { ServerInput, SleepServerOutput, WakeServerOutput } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { type MetaTool, structured, toolError } from '../../core/plugin/meta-tool.js';

const LIFECYCLE_ANNOTATIONS = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Starts an on-demand server and waits until it is up; a no-op for one that is up. */
export function wakeServer(hub: PluginHub): MetaTool {
  return {
    name: 'wake_server',
    description: 'Starts a sleeping server and waits until it is up. Optional: call_tool wakes a server by itself; use this to warm one ahead of time.',
    inputSchema: ServerInput,
    outputSchema: WakeServerOutput,
    annotations: { title: 'Wake server', ...LIFECYCLE_ANNOTATIONS },
    async call(args, context) {
      const found = findServer(hub, (args as ServerInput).server, context.request);
      if (!found.ok) return found.error;
      const child = found.value;
      if (child.alwaysRunning) return toolError(`Cannot wake server "${child.name}": it is always running`);
      try {
        await child.ensureUp();
      } catch (error) {
        return toolError(`Could not wake server "${child.name}": ${(error as Error).message}`);
      }
      return structured({ name: child.name, status: child.status, toolCount: child.tools.length } satisfies WakeServerOutput);
    },
  };
}

/** Puts an on-demand server to sleep at once; a no-op for one that sleeps. */
export function sleepServer(hub: PluginHub): MetaTool {
  return {
    name: 'sleep_server',
    description: 'Puts an on-demand server to sleep now, ending its process; the next call_tool starts it again.',
    inputSchema: ServerInput,
    outputSchema: SleepServerOutput,
    annotations: { title: 'Sleep server', ...LIFECYCLE_ANNOTATIONS },
    async call(args, context) {
      const found = findServer(hub, (args as ServerInput).server, context.request);
      if (!found.ok) return found.error;
      const child = found.value;
      if (child.alwaysRunning) return toolError(`Cannot put server "${child.name}" to sleep: it is always running`);
      await child.sleep();
      return structured({ name: child.name, status: child.status } satisfies SleepServerOutput);
    },
  };
}
