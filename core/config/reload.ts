import { readlinkSync, realpathSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import type { ConfiguredServers } from '../children/configured.js';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { loadConfigFile } from './load.js';
import type { HubConfig } from './schema.js';

export interface ReloadOptions {
  file: string;
  env: NodeJS.ProcessEnv;
  servers: ConfiguredServers;
  /** The `plugins` the hub started with: plugins are registered once, so changes wait for a restart. */
  plugins: HubConfig['plugins'];
  /** Takes out the servers of running plugins the new config turns off (as a restart would leave them out); resolves with their names. */
  takeOutPluginServers?(config: HubConfig): Promise<string[]>;
  log: FastifyBaseLogger;
  /** Told what became of every reload (the kernel publishes it for observers). */
  onResult?(result: ReloadResult): void;
}

/** What became of one reload: applied (with the servers it changed) or refused (with why). */
export type ReloadResult = { trigger: string; outcome: 'applied'; added: string[]; removed: string[]; restarted: string[]; retuned: string[] } | { trigger: string; outcome: 'refused'; error: string };

/**
 * Reloads the config file on demand (SIGHUP) and when it changes: a config that fails
 * validation is refused with its message and the running one stays in force; otherwise
 * the configured servers are brought in line with it (see `ConfiguredServers.apply`).
 * Reloads run one at a time; triggers during one are folded into one more.
 */
export class ConfigReloader {
  #running: Promise<boolean> | undefined;
  #pending: Promise<boolean> | undefined;

  constructor(private readonly options: ReloadOptions) {}

  reload(trigger: string): Promise<boolean> {
    if (!this.#running) {
      this.#running = this.#reload(trigger).finally(() => (this.#running = undefined));
      return this.#running;
    }
    this.#pending ??= this.#running.then(() => {
      this.#pending = undefined;
      return this.reload(trigger);
    });
    return this.#pending;
  }

  /**
   * Reloads after the file changes, once writes have been quiet for `debounceMs` (an
   * editor's save is several events; a save by rename replaces the file, so its folder
   * is watched). A symlinked config is followed: the folders of the link and of its
   * target (and of every link on the way) are watched, and followed anew after each
   * change, so an edit of the target and a link pointed elsewhere both reload. A link
   * among the folders on the way counts too: a Kubernetes ConfigMap volume is updated by
   * swapping such a link (`..data`) to a new folder, which no event names as the file,
   * but the file then resolves elsewhere. Returns the stop.
   */
  watch(debounceMs: number): () => void {
    const { file, log } = this.options;
    let timer: NodeJS.Timeout | undefined;
    let names = new Map<string, Set<string>>();
    let target: string | undefined;
    const watchers = new Map<string, FSWatcher>();
    const follow = (): void => {
      names = linkChain(file);
      target = resolvedPath(file);
      for (const [folder, watcher] of watchers) {
        if (names.has(folder)) continue;
        watcher.close();
        watchers.delete(folder);
      }
      for (const folder of names.keys()) {
        if (watchers.has(folder)) continue;
        try {
          const watcher = watch(folder, { persistent: false }, (_event, changed) => {
            if (changed !== null && !names.get(folder)?.has(changed) && resolvedPath(file) === target) return;
            clearTimeout(timer);
            timer = setTimeout(() => {
              follow();
              void this.reload('file change');
            }, debounceMs);
          });
          watcher.on('error', (error) => log.warn({ err: error.message, config: file, folder }, 'stopped watching a folder of the config file; reload with SIGHUP'));
          watchers.set(folder, watcher);
        } catch (error) {
          log.warn({ err: (error as Error).message, config: file, folder }, 'cannot watch a folder of the config file; reload with SIGHUP');
        }
      }
    };
    follow();
    return () => {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
    };
  }

  async #reload(trigger: string): Promise<boolean> {
    const { file, env, servers, log } = this.options;
    let config: HubConfig;
    let entries;
    try {
      const loaded = await loadConfigFile(file, env);
      if (loaded.file === undefined) throw new StartupError(`${file}: there is no config file (yet): write it there, or point HUB_CONFIG at yours`, { code: HUB_ERROR_CODES.CONFIG_UNREADABLE });
      config = loaded.config;
      entries = servers.check(config, file);
    } catch (error) {
      const message = error instanceof StartupError ? error.message : `${file}: ${(error as Error).message}`;
      log.error({ trigger }, `config reload refused, the running config stays in force: ${message}`);
      this.options.onResult?.({ trigger, outcome: 'refused', error: message });
      return false;
    }
    for (const warning of servers.typos(config)) log.warn({ config: file }, warning);
    const notices = servers.notices(config);
    for (const warning of notices.warnings) log.warn({ config: file }, warning);
    for (const note of notices.adopted) log.info({ config: file }, `written for another client: ${note}`);
    const pluginsChanged = changedKeys(config.plugins ?? {}, this.options.plugins ?? {});
    if (pluginsChanged.length > 0) {
      log.warn(
        { trigger, config: file, plugins: pluginsChanged },
        `the "plugins" section changed (${pluginsChanged.join(', ')}): plugins and their options take effect at the next restart of the hub`,
      );
    }
    const { changes, stopped } = await servers.apply(entries);
    changes.removed.push(...((await this.options.takeOutPluginServers?.(config)) ?? []));
    for (const { name, why } of changes.refused) log.error({ trigger, server: name }, `the reload was refused for server "${name}": ${why}`);
    const { added, removed, restarted, retuned, unchanged } = changes;
    const refused = changes.refused.map(({ name }) => name);
    log.info({ trigger, added, removed, restarted, retuned, refused, unchanged }, 'config reloaded');
    this.options.onResult?.({ trigger, outcome: 'applied', added, removed, restarted, retuned });
    void stopped.then(() => {
      if (removed.length > 0) log.info({ servers: removed }, 'servers taken out by the reload have finished their calls and stopped');
      if (restarted.length > 0) log.info({ servers: restarted }, 'servers restarted by the reload: their old processes have finished their calls and stopped');
    });
    return true;
  }
}

/** The keys whose values differ between two records (added, removed or changed). */
function changedKeys(now: Record<string, unknown>, before: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(now), ...Object.keys(before)])].filter((key) => !isDeepStrictEqual(now[key], before[key])).sort();
}

/** Where `file` leads once every link (of a folder on the way too) is followed; undefined while it leads nowhere. */
function resolvedPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Most symlinks followed from the config file to its target (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * The names whose change means the config changed, by folder: the file itself, every
 * symlink on the way to its target, and the target.
 */
function linkChain(file: string): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  const add = (path: string) => {
    const folder = dirname(path);
    names.set(folder, (names.get(folder) ?? new Set()).add(basename(path)));
  };
  let current = file;
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    add(current);
    let target: string;
    try {
      target = readlinkSync(current);
    } catch {
      // Not a link (or gone): the chain ends here.
      break;
    }
    current = resolve(dirname(current), target);
  }
  try {
    add(realpathSync(file));
  } catch {
    // A dangling link: its folders are watched for the target to appear.
  }
  return names;
}
