import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import type { HubPlugin, PluginManifest } from '../plugin.js';

// Apart from resolve.ts, which validates options with TypeBox: `hub-admin --help` reads the
// manifests with nothing heavier than this file loaded.

/** A built-in plugin as its manifest says it, imported on `load`. */
export class Builtin {
  constructor(
    readonly manifest: PluginManifest,
    readonly folder: string,
  ) {}

  async load(): Promise<HubPlugin> {
    // plugin.js loads TypeBox (the empty options schema): only a plugin's load needs it.
    const [module, { isHubPlugin, withOptions }] = await Promise.all([import(pathToFileURL(join(this.folder, 'index.js')).href) as Promise<{ default?: unknown }>, import('../plugin.js')]);
    if (!isHubPlugin(module.default)) throw new StartupError(`built-in plugin folder "${this.folder}" does not export a plugin as default`, { code: HUB_ERROR_CODES.PLUGIN_INVALID });
    if (module.default.name !== this.manifest.name) {
      throw new StartupError(`built-in plugin folder "${this.folder}": its manifest names "${this.manifest.name}", its plugin "${module.default.name}"`, { code: HUB_ERROR_CODES.PLUGIN_INVALID });
    }
    return withOptions(module.default);
  }
}

/** The built-in plugins by name, from each folder's `manifest.js`, without importing a plugin. */
export async function readBuiltinManifests(directory: string): Promise<Map<string, Builtin>> {
  const builtins = new Map<string, Builtin>();
  let folders: string[];
  try {
    folders = (await readdir(directory, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return builtins;
  }
  for (const folder of folders.sort()) {
    const manifest = join(directory, folder, 'manifest.js');
    if (!existsSync(manifest) || !existsSync(join(directory, folder, 'index.js'))) continue;
    const module = (await import(pathToFileURL(manifest).href)) as { default?: Partial<PluginManifest> };
    const { name, description } = module.default ?? {};
    if (typeof name !== 'string' || typeof description !== 'string')
      throw new StartupError(`built-in plugin folder "${folder}": its manifest has no name and description`, { code: HUB_ERROR_CODES.PLUGIN_INVALID });
    builtins.set(name, new Builtin(module.default as PluginManifest, join(directory, folder)));
  }
  return builtins;
}

/** Whether a built-in runs when the config's `plugins` does not mention it. */
export function enabledWithoutMention(manifest: PluginManifest, env: NodeJS.ProcessEnv, configured: boolean): boolean {
  const { enabledByDefault } = manifest;
  return typeof enabledByDefault === 'function' ? enabledByDefault(env, { configured }) : enabledByDefault !== false;
}
