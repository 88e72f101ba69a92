import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import type { AdminCommandSummary } from './cli/admin-command.js';
import type { PluginHub } from './plugin-hub.js';

/**
 * A hub plugin is a value. The kernel validates `options` against the schema (applying
 * its defaults) before `register` runs, registers plugins in dependency order, and wraps
 * each with `fastify-plugin` metadata so Fastify checks the dependencies as well.
 */
export interface HubPlugin<Options extends TSchema = TSchema> {
  /** What other plugins' `dependencies` name, and what logs and errors say; the config selects a plugin by its package name or path. */
  name: string;
  /** One line for the README and `hub --help`. */
  description: string;
  /** Every plugin whose service this one uses: ordered before it, and checked by the kernel and by Fastify. */
  dependencies?: readonly string[];
  /** The options' TypeBox schema; `definePlugin` makes it an empty object (no options) when the plugin gives none. */
  options: Options;
  /**
   * Whether the plugin runs when the config's `plugins` does not mention it; a function
   * decides from the environment and whether the operator wrote a config at all.
   */
  enabledByDefault?: boolean | ((env: NodeJS.ProcessEnv, context: DefaultContext) => boolean);
  /**
   * Schemas others rely on (tool outputs, documents), by file name; `npm run schemas`
   * writes them, with the options schema, to `schemas/<plugin>/`.
   */
  publicSchemas?: Readonly<Record<string, TSchema>>;
  /** First path segments this plugin serves; no server may take such a name. */
  reservedPaths?: readonly string[];
  /**
   * Keys this plugin adds to every `mcpServers` entry, with their schemas. The kernel checks
   * them with the rest of the entry and knows them when it warns of likely typos. A key the
   * plugin sets up at start (not in `liveServerKeys`) cannot change in a running hub: a
   * reload that changes one is refused for that server, saying so, until a restart.
   */
  serverKeys?: Readonly<Record<string, TSchema>>;
  /**
   * The keys of `serverKeys` the plugin reads from the entry each time it acts
   * (`server.entry`, `call.server.entry`): a reload applies a change to one at once, in
   * place, without restarting the server; the tool gates review its tools again.
   */
  liveServerKeys?: readonly string[];
  /**
   * The `hub-admin` commands `register` adds, as a built-in's manifest says them: `hub-admin
   * --help` and store-only actions need no more than this (see core/cli/admin-command.ts).
   */
  adminCommands?: readonly AdminCommandSummary[];
  /** Files and folders under DATA_PATH where this plugin keeps secrets: owner-only, checked at start (see core/store/private-files.ts). */
  secretFiles?: readonly string[];
  /** Runs in the plugin's own encapsulated Fastify context, with the hub as plugins see it. */
  register(app: FastifyInstance, options: Static<Options>, hub: PluginHub): Promise<void> | void;
}

/**
 * What the kernel reads of a built-in plugin before it decides whether to import it: the
 * folder's `manifest.js`, a module with no imports, which the plugin's `definePlugin`
 * spreads. A deployment imports only the plugins it enables (and their dependencies).
 */
export type PluginManifest = Pick<HubPlugin, 'name' | 'description' | 'enabledByDefault' | 'adminCommands'>;

export interface DefaultContext {
  /** A config file exists (or the embedding app handed the hub a config). */
  configured: boolean;
}

/** What `definePlugin` takes: a plugin whose `options` may be left out when it has none. */
export type PluginDefinition<Options extends TSchema> = Omit<HubPlugin<Options>, 'options'> & { options?: Options };

/** The options of a plugin that has none: an empty object, any key refused. */
export const NO_OPTIONS = Type.Object({}, { additionalProperties: false });

/**
 * Keeps the options type tied to the schema; a plugin without `options` gets the empty
 * object schema (`NO_OPTIONS`), so `"plugins": { "name": true }` is all it takes. Refuses
 * at once (not at `hub check`) an `options` that is not a TypeBox schema.
 */
export function definePlugin<Options extends TSchema = typeof NO_OPTIONS>(plugin: PluginDefinition<Options>): HubPlugin<Options> {
  // A plugin written in JavaScript may pass anything.
  const options: unknown = plugin.options;
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new TypeError(`plugin "${plugin.name}": options must be a TypeBox schema (Type.Object({...})), or left out when the plugin has none`);
  }
  return { ...plugin, options: plugin.options ?? (NO_OPTIONS as TSchema as Options) };
}

/** A plugin as a module exports it: made with `definePlugin`, or a plain object that leaves `options` out, as `definePlugin` allows. */
export type PluginExport = HubPlugin | (Omit<HubPlugin, 'options'> & { options?: undefined });

/** Whether `value` is a plugin (a value with name and register; options may be left out, as `definePlugin` allows). */
export function isHubPlugin(value: unknown): value is PluginExport {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { [K in keyof HubPlugin]?: unknown };
  return typeof candidate.name === 'string' && typeof candidate.register === 'function' && (candidate.options === undefined || (typeof candidate.options === 'object' && candidate.options !== null));
}

/** The plugin itself, or, when it leaves `options` out, a copy with the empty options schema (`NO_OPTIONS`). */
export function withOptions(plugin: PluginExport): HubPlugin {
  return plugin.options === undefined ? { ...plugin, options: NO_OPTIONS } : plugin;
}
