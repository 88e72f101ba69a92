import { fileURLToPath } from 'node:url';
import type { AdminCommandSummary } from './admin-command.js';
import { readConfigText } from '../config/read.js';
import { SESSIONS_COMMAND } from '../operator/sessions-command.js';
import { enabledWithoutMention, readBuiltinManifests } from '../plugins/builtins.js';
import { settingPath } from '../config/setting-paths.js';

const BUILTIN_DIRECTORY = fileURLToPath(new URL('../../plugins/', import.meta.url));

/**
 * The admin commands of the built-in plugins the config enables, from their manifests,
 * without importing a plugin or the kernel. Undefined when only the hub itself can say:
 * the config names a plugin that is not built in (which may add commands), or is not
 * plain JSON with a `plugins` object (the hub then says what is wrong with it).
 */
export async function declaredCommands(env: NodeJS.ProcessEnv, builtinDirectory = BUILTIN_DIRECTORY): Promise<AdminCommandSummary[] | undefined> {
  const text = await readConfigText(settingPath(env, 'HUB_CONFIG'));
  let selection: unknown;
  try {
    selection = text === undefined ? undefined : (JSON.parse(text.replace(/^\uFEFF/, '')) as { plugins?: unknown }).plugins;
  } catch {
    return undefined;
  }
  if (selection !== undefined && (typeof selection !== 'object' || selection === null || Array.isArray(selection))) return undefined;
  const builtins = await readBuiltinManifests(builtinDirectory);
  const enabled = new Set([...builtins.values()].filter((builtin) => enabledWithoutMention(builtin.manifest, env, text !== undefined)).map((builtin) => builtin.manifest.name));
  for (const [name, value] of Object.entries(selection ?? {})) {
    if (!builtins.has(name)) return undefined;
    if (value === false) enabled.delete(name);
    else enabled.add(name);
  }
  // The kernel's own commands come after the plugins', as the hub's registry lists them.
  return [...[...builtins.values()].flatMap(({ manifest }) => (enabled.has(manifest.name) ? (manifest.adminCommands ?? []) : [])), ...KERNEL_COMMANDS];
}

/** The commands the kernel registers itself (core/kernel.ts). */
const KERNEL_COMMANDS: readonly AdminCommandSummary[] = [SESSIONS_COMMAND];
