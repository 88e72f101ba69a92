import type { FastifyInstance } from 'fastify';
import type { Static, TSchema } from 'typebox';
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
   * them with the rest of the entry and knows them when it warns of likely typos; the plugin
   * sets them up at start, so a reload keeps a change to one for the next restart.
   */
  serverKeys?: Readonly<Record<string, TSchema>>;
  /**
   * The `hub-admin` commands `register` adds, as a built-in's manifest says them: `hub-admin
   * --help` and store-only actions need no more than this (see core/cli/admin-command.ts).
   */
  adminCommands?: readonly AdminCommandSummary[];
  /** Files and folders under DATA_PATH where this plugin keeps secrets: owner-only, checked at start (see core/private-files.ts). */
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

/** Identity function that keeps the options type tied to the schema. */
export function definePlugin<Options extends TSchema>(plugin: HubPlugin<Options>): HubPlugin<Options> {
  return plugin;
}

export function isHubPlugin(value: unknown): value is HubPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<HubPlugin>;
  return typeof candidate.name === 'string' && typeof candidate.register === 'function' && typeof candidate.options === 'object';
}
