#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDetachedHub } from '../detached.js';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { withSecretFiles } from '../secret-files.js';
import { settingsFromEnvironment } from '../settings.js';
import { runCli, wantsHelp } from './run.js';

/**
 * A generic dispatcher over the admin commands that plugins register: it builds the hub
 * from the same config and environment as the server (the same resolution of HUB_CONFIG,
 * DATA_PATH and BASE_URL), without listening, runs one command against it (and so
 * against the same store) and closes it.
 */
runCli('hub-admin', async () => {
  const [group, ...args] = process.argv.slice(2);
  const help = group === undefined || wantsHelp([group]);
  // MONGODB_URL may come from MONGODB_URL_FILE, and decides whether a store file must exist.
  const env = await withSecretFiles(process.env);
  if (!help) refuseNewStore(env);
  // The commands need the store and the plugins, not the servers: a broken entry is only noted.
  const { app, hub } = await openDetachedHub(env, false, { leftOut: (problem) => process.stderr.write(`hub-admin: note: left out a server: ${problem}\n`) });
  try {
    const commands = hub.adminCommands;
    // A command named by two words (`tools search`) is one action of a group another plugin may own: it goes first.
    const action = group === undefined || args[0] === undefined ? undefined : commands.get(`${group} ${args[0]}`);
    const command = action ?? (group === undefined ? undefined : commands.get(group));
    if (!command || help) {
      const lines = commands.values().map((entry) => `  ${entry.name.padEnd(10)}${entry.summary}\n      hub-admin ${entry.usage}`);
      const usage = `Usage: hub-admin <group> <action> [options]\n\n${lines.join('\n') || '  (no plugin registers admin commands)'}\n\n${RESOLUTION}`;
      if (help) return void process.stdout.write(usage);
      process.stderr.write(`hub-admin: unknown command group "${group}"\n\n${usage}`);
      process.exitCode = 2;
      return;
    }
    process.exitCode = await command.run(action ? args.slice(1) : args);
  } finally {
    await app.close();
  }
});

const RESOLUTION = `hub-admin reads HUB_CONFIG, DATA_PATH, MONGODB_URL, BASE_URL, HOST and PORT as the hub
does (relative paths from the current folder): run it where the hub runs, with the same
environment. It works on an existing store only. Tokens are minted for BASE_URL when it
(or HOST or PORT) is set, otherwise for the base URL the hub last served on.
`;

/**
 * A store that does not exist means hub-admin is not looking where the hub keeps its
 * data (another folder, another DATA_PATH): creating one there would hand out clients
 * and tokens that no hub knows. Say where it looked and why instead.
 */
function refuseNewStore(env: NodeJS.ProcessEnv): void {
  if (env.MONGODB_URL) return;
  const { dataPath } = settingsFromEnvironment(env);
  const store = join(dataPath, 'store');
  if (existsSync(store)) return;
  const how = env.DATA_PATH?.trim() ? `DATA_PATH is ${env.DATA_PATH}` : `DATA_PATH is unset, so ./data of the current folder ${process.cwd()}`;
  throw new StartupError(`no hub store at ${store} (${how}); run hub-admin with the hub's DATA_PATH (and HUB_CONFIG, BASE_URL), or start the hub once to create the store`, { code: HUB_ERROR_CODES.STORE_UNAVAILABLE });
}
