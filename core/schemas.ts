import { fileURLToPath } from 'node:url';
import type { TSchema } from 'typebox';
import { HubConfig } from './config/schema.js';
import { loadBuiltins } from './plugins/resolve.js';

export const builtinPluginDirectory = fileURLToPath(new URL('../plugins/', import.meta.url));

/**
 * Every published JSON Schema by its path under `schemas/`: the config file, and each
 * built-in plugin's options and public schemas. TypeBox schemas are JSON Schema already,
 * so generating is serializing.
 */
export async function collectSchemas(): Promise<Map<string, TSchema>> {
  const schemas = new Map<string, TSchema>([['config.json', HubConfig]]);
  for (const plugin of (await loadBuiltins(builtinPluginDirectory)).values()) {
    schemas.set(`${plugin.name}/options.json`, plugin.options);
    for (const [name, schema] of Object.entries(plugin.publicSchemas ?? {})) schemas.set(`${plugin.name}/${name}.json`, schema);
  }
  return schemas;
}

export function serializeSchema(schema: TSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
