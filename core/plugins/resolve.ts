import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Value from 'typebox/value';
import type { HubConfig } from '../config/schema.js';
import { firstSchemaProblem, pointerToPath } from '../config/schema-errors.js';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { isHubPlugin, withOptions, type HubPlugin } from '../plugin.js';
import { Builtin, enabledWithoutMention, readBuiltinManifests } from './builtins.js';
import { orderByDependencies } from './order.js';

export { Builtin, readBuiltinManifests } from './builtins.js';

export interface PluginToRegister {
  plugin: HubPlugin;
  options: unknown;
}

export interface ResolveContext {
  /** Folder whose subfolders with an `index.js` and a `manifest.js` each hold one built-in plugin. */
  builtinDirectory: string;
  configDirectory: string;
  /** Names the config file in messages. */
  source: string;
  env: NodeJS.ProcessEnv;
  /** Whether the operator wrote a config, for plugins on by default only without one. */
  configured: boolean;
}

/**
 * Turns the config's `plugins` selection into the plugins to register, in dependency
 * order, with validated options. Every problem is a one-line StartupError, raised before
 * anything listens.
 */
export async function resolvePlugins(selection: HubConfig['plugins'], context: ResolveContext): Promise<PluginToRegister[]> {
  const builtins = await readBuiltinManifests(context.builtinDirectory);
  // Built-ins are chosen by their manifests, and imported only once chosen.
  const chosen = new Map<string, { source: Builtin | HubPlugin; value: unknown }>();

  for (const builtin of builtins.values()) {
    if (enabledWithoutMention(builtin.manifest, context.env, context.configured)) chosen.set(builtin.manifest.name, { source: builtin, value: true });
  }
  for (const [key, value] of Object.entries(selection ?? {})) {
    const builtin = builtins.get(key);
    if (value === false) {
      chosen.delete(builtin?.manifest.name ?? key);
      continue;
    }
    if (builtin) {
      chosen.set(builtin.manifest.name, { source: builtin, value });
      continue;
    }
    const plugin = await loadThirdParty(key, context, [...builtins.keys()]);
    if (chosen.has(plugin.name)) {
      throw new StartupError(`${context.source}: plugin "${key}" is named "${plugin.name}", which another plugin already uses`, { code: HUB_ERROR_CODES.PLUGIN_INVALID });
    }
    chosen.set(plugin.name, { source: plugin, value });
  }
  const plugins = new Map<string, { plugin: HubPlugin; value: unknown }>();
  for (const [name, { source, value }] of chosen) plugins.set(name, { plugin: source instanceof Builtin ? await source.load() : source, value });

  for (const { plugin } of plugins.values()) {
    for (const dependency of plugin.dependencies ?? []) {
      if (plugins.has(dependency)) continue;
      const why = builtins.has(dependency) ? 'which is disabled' : 'which is not a known plugin';
      throw new StartupError(`plugin "${plugin.name}" depends on plugin "${dependency}", ${why}; enable "${dependency}" or disable "${plugin.name}"`, { code: HUB_ERROR_CODES.PLUGIN_DEPENDENCY });
    }
  }

  const ordered = orderByDependencies([...plugins.values()].map(({ plugin }) => plugin));
  return ordered.map((plugin) => ({ plugin, options: validateOptions(plugin, plugins.get(plugin.name)?.value) }));
}

function validateOptions(plugin: HubPlugin, value: unknown): unknown {
  const given = value === true ? {} : structuredClone(value);
  const options = Value.Default(plugin.options, given);
  const problem = firstSchemaProblem(plugin.options, options);
  if (problem) {
    const path = pointerToPath(problem.path);
    throw new StartupError(`plugin "${plugin.name}": ${path ? `option "${path}"` : 'options'}: expected ${problem.expected}`, { code: HUB_ERROR_CODES.PLUGIN_OPTIONS_INVALID });
  }
  return options;
}

/** Every built-in plugin, imported (what `npm run schemas` publishes). */
export async function loadBuiltins(directory: string): Promise<Map<string, HubPlugin>> {
  const plugins = new Map<string, HubPlugin>();
  for (const [name, builtin] of await readBuiltinManifests(directory)) plugins.set(name, await builtin.load());
  return plugins;
}

/** A third-party plugin: a path relative to the config file, or a package name. */
async function loadThirdParty(key: string, context: ResolveContext, builtinNames: string[]): Promise<HubPlugin> {
  const isPath = key.startsWith('.') || isAbsolute(key);
  let url: string;
  try {
    url = isPath ? pathToFileURL(resolve(context.configDirectory, key)).href : pathToFileURL(createRequire(join(context.configDirectory, 'noop.js')).resolve(key)).href;
    const module = (await import(url)) as { default?: unknown; plugin?: unknown };
    const plugin = module.default ?? module.plugin;
    if (!isHubPlugin(plugin)) {
      throw new StartupError(`${context.source}: plugin "${key}" does not export a hub plugin (a value with name and register, made with definePlugin) as default`, {
        code: HUB_ERROR_CODES.PLUGIN_INVALID,
      });
    }
    return withOptions(plugin);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      throw new StartupError(`${context.source}: unknown plugin "${key}": not a built-in plugin (${builtinNames.join(', ') || 'none'}) and no ${isPath ? 'file' : 'package'} of that name was found`, {
        code: HUB_ERROR_CODES.PLUGIN_NOT_FOUND,
        cause: error,
      });
    }
    throw new StartupError(`${context.source}: plugin "${key}" failed to load: ${(error as Error).message}`, { code: HUB_ERROR_CODES.PLUGIN_LOAD_FAILED, cause: error });
  }
}
