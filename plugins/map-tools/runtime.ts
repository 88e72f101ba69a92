import { selectProviders } from './providers/select.js';
import type { ProviderSet } from './providers/types.js';
import type { ToolName } from './schemas.js';
import { selectTools } from './selection.js';
import { mapSettingsFromEnvironment, type MapSettings } from './settings.js';

export interface MapRuntime {
  settings: MapSettings;
  tools: ToolName[];
  /** The engines, created once and shared afterwards; a failed start is retried on the next call. */
  providers: () => Promise<ProviderSet>;
  /**
   * Starts creating the engines now (loading an offline extract can take seconds), so the
   * first tool call does not wait for it; a failure is reported to `onError` and retried
   * when a tool next needs the engines.
   */
  start(onError: (error: unknown) => void): void;
  /** Stops a load under way. */
  close(): void;
}

/** Reads the environment once; a bad value fails here, at start-up, with its variable's name. */
export function createMapRuntime(env: NodeJS.ProcessEnv, log: (line: string) => void): MapRuntime {
  const settings = mapSettingsFromEnvironment(env);
  const tools = selectTools(settings.allowTools, settings.denyTools);
  const closing = new AbortController();
  let pending: Promise<ProviderSet> | undefined;
  const providers = () => {
    pending ??= selectProviders(settings, { log, signal: closing.signal }).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return {
    settings,
    tools,
    providers,
    start(onError) {
      providers().catch((error: unknown) => {
        if (!closing.signal.aborted) onError(error);
      });
    },
    close() {
      closing.abort();
    },
  };
}
