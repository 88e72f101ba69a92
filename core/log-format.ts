import { settingsFromEnvironment } from './config/settings.js';

/**
 * Whether the hub logs readable lines (LOG_FORMAT=pretty, or auto with a terminal as
 * `destination`) rather than one JSON record a line, for log collectors.
 */
export function readableLogs(env: NodeJS.ProcessEnv, destination: { isTTY?: boolean } = process.stdout): boolean {
  const { logFormat } = settingsFromEnvironment(env);
  return logFormat === 'pretty' || (logFormat === 'auto' && destination.isTTY === true);
}
