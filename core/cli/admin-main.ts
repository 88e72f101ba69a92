import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminOutput } from './admin-command.js';
import { adminUsage, findCommand, isStoreOnly, parseAdminArgs, unknownGroup } from './admin-args.js';
import { declaredCommands } from './admin-declared.js';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { withSecretFiles } from '../config/secret-files.js';
import { settingPath } from '../config/setting-paths.js';
import { openStore } from '../store/index.js';

/**
 * What `hub-admin` does with its words and environment, writing to `output`; resolves with
 * the exit code, rejects with what `runCli` prints. A generic dispatcher over the admin
 * commands that plugins register. What the built-in plugins' manifests declare (the usage,
 * an unknown group, an action that needs only the store) runs without the hub: no kernel,
 * Fastify or SDK is loaded, so `hub-admin --help` and `tokens list` start about as fast as
 * node. Everything else runs against the hub built from the same config and environment as
 * the server, without listening.
 */
export async function runAdmin(argv: readonly string[], processEnv: NodeJS.ProcessEnv, output: AdminOutput): Promise<number> {
  const invocation = parseAdminArgs(argv);
  // MONGODB_URL may come from MONGODB_URL_FILE, and decides whether a store file must exist.
  const env = await withSecretFiles(processEnv);
  const declared = await declaredCommands(env);
  if (declared) {
    if (invocation.help) {
      output.stdout(adminUsage(declared));
      return 0;
    }
    const found = findCommand(declared, invocation.group, invocation.args);
    if (!found) {
      output.stderr(unknownGroup(invocation.group, declared));
      return 2;
    }
    const { storeOnly } = found.command;
    if (storeOnly && !found.action && isStoreOnly(found.command, found.args)) {
      refuseNewStore(env);
      const [run, store] = await Promise.all([storeOnly.load(), openStore({ dataPath: settingPath(env, 'DATA_PATH'), mongodbUrl: env.MONGODB_URL })]);
      try {
        return await run(store, found.args, output);
      } finally {
        await store.close();
      }
    }
  }
  if (!invocation.help) refuseNewStore(env);
  return (await import('./admin-hub.js')).runInHub(env, invocation, output);
}

/**
 * A store that does not exist means hub-admin is not looking where the hub keeps its
 * data (another folder, another DATA_PATH): creating one there would hand out clients
 * and tokens that no hub knows. Say where it looked and why instead.
 */
function refuseNewStore(env: NodeJS.ProcessEnv): void {
  if (env.MONGODB_URL) return;
  const store = join(settingPath(env, 'DATA_PATH'), 'store');
  if (existsSync(store)) return;
  const how = env.DATA_PATH?.trim() ? `DATA_PATH is ${env.DATA_PATH}` : `DATA_PATH is unset, so ./data of the current folder ${process.cwd()}`;
  throw new StartupError(`no hub store at ${store} (${how}); run hub-admin with the hub's DATA_PATH (and HUB_CONFIG, BASE_URL), or start the hub once to create the store`, {
    code: HUB_ERROR_CODES.STORE_UNAVAILABLE,
  });
}
