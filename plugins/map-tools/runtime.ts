import { selectProviders } from './providers/select.js';
import type { ProviderSet } from './providers/types.js';
import type { ToolName } from './schemas.js';
import { selectTools } from './selection.js';
import { mapSettingsFromEnvironment, type MapSettings } from './settings.js';

export interface MapRuntime {
  settings: MapSettings;
  tools: ToolName[];
  /** The engines, created on first use and shared afterwards; a failed start is retried. */
  providers: () => Promise<ProviderSet>;
}

/** Reads the environment once; a bad value fails here, at start-up, with its variable's name. */
export function createMapRuntime(env: NodeJS.ProcessEnv): MapRuntime {
  const settings = mapSettingsFromEnvironment(env);
  const tools = selectTools(settings.allowTools, settings.denyTools);
  let pending: Promise<ProviderSet> | undefined;
  const providers = () => {
    pending ??= selectProviders(settings).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return { settings, tools, providers };
}
