import { openSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Hub } from '../../core/hub.js';
import { hub, onKernel } from '../../core/kernel.js';
import type { PluginHub } from '../../core/plugin-hub.js';
import { startHub } from '../../core/server.js';
import type { LogRecord } from './hub-bin.js';
import { freePort } from './net.js';
import { waitForValue } from './wait.js';

export interface TestHub {
  app: FastifyInstance;
  hub: Hub;
  url: string;
  dataPath: string;
}

/**
 * A real hub on a loopback port chosen by the OS, with its own data folder. Closed by
 * the test's teardown.
 */
export async function startTestHub(
  t: { teardown(fn: () => unknown): void },
  options: {
    config?: unknown;
    env?: Record<string, string>;
    /** The embedding app's setup, with the hub as plugins see it. */
    setup?: (hub: PluginHub) => void | Promise<void>;
    /** The kernel's own hub, before the plugins register (timings, in-process servers). */
    kernel?: (hub: Hub) => void;
    /** When given, the hub's log lines (JSON) are collected here. */
    logs?: string[];
    /** An existing data folder (an earlier hub's); by default a new one. */
    dataPath?: string;
  } = {},
): Promise<TestHub> {
  const dataPath = options.dataPath ?? (await mkdtemp(join(tmpdir(), 'hub-test-')));
  const logs = options.logs;
  const app = Fastify({ pluginTimeout: 0, logger: logs ? { level: 'info', stream: { write: (line: string) => void logs.push(line) } } : false });
  let context: Hub | undefined;
  await app.register(hub, {
    [onKernel]: (created) => {
      context = created;
      options.kernel?.(created);
    },
    ...(options.setup && { setup: options.setup }),
    config: withoutOAuthUnlessEnabled(options.config ?? {}),
    env: { DATA_PATH: dataPath, ...options.env },
    settings: { dataPath },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  if (!context) throw new Error('the hub plugin did not hand over the kernel');
  // As the standalone hub's start does, what the hub does once it listens is done; a failure
  // of it does not fail an embedding app's listen (the hub answers 503 and logs why), nor this.
  await context.listenWork.done?.catch(() => undefined);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, hub: context, url: `http://127.0.0.1:${port}`, dataPath };
}

/**
 * oauth-as is on by default and would make every MCP endpoint require a token; tests that
 * do not ask for it get it switched off (allowed: the test hub binds to loopback).
 */
function withoutOAuthUnlessEnabled(config: unknown): unknown {
  if (typeof config !== 'object' || config === null) return config;
  const given = config as { plugins?: Record<string, unknown> };
  return { ...given, plugins: { 'oauth-as': false, ...given.plugins } };
}

export interface StandaloneHub {
  url: string;
  port: number;
  dataPath: string;
  /** HUB_CONFIG: writing it reloads the hub. */
  configFile: string;
  /** The environment the hub started with, for hub-admin's commands beside it (adminBeside). */
  env: Record<string, string>;
  /** Everything the hub logged so far, as a collector reading its stdout would get it. */
  log(): string;
  /** The log's JSON records so far. */
  logs(): LogRecord[];
  /** Waits until a log record matches (the log is written asynchronously; bounded generously, not a timing assertion). */
  waitForLog(what: string, match: (record: LogRecord) => boolean): Promise<LogRecord>;
  /** Waits until the log's text matches, for readable (pretty) logs. */
  waitForLogText(what: string, match: (text: string) => boolean): Promise<string>;
  /** The hub as plugins see it: `hub.reloadConfig('SIGHUP')` is what the hub bin's SIGHUP handler runs (core/cli/hub.ts). */
  hub: PluginHub;
  /** Stops the hub as the teardown would, for a restart on the same config and data within the test. */
  close(): Promise<void>;
}

/**
 * The standalone hub (`startHub`, what the `hub` bin runs: the server's timeouts,
 * connection cap, trusted proxies and logger included) in this process, with oauth-as on
 * (unless the config says otherwise) and by default no servers, its config in a file
 * (HUB_CONFIG), on a loopback port of its own with BASE_URL its real address. Its log (none
 * unless `env` sets LOG_LEVEL; a variable given as undefined is unset) goes to a file, as
 * the hub bin's goes to a stdout that is not a terminal. `configFile`: a path of the test's
 * instead, written or not (a hub started without a config file, or again on an earlier
 * hub's). Closed by the test's teardown.
 */
export async function startStandaloneHub(
  t: { teardown(fn: () => unknown): void },
  env: Record<string, string | undefined> = {},
  options: { config?: unknown; dataPath?: string; configFile?: string } = {},
): Promise<StandaloneHub> {
  const folder = await mkdtemp(join(tmpdir(), 'standalone-hub-'));
  const configFile = options.configFile ?? join(folder, 'mcp.json');
  if (options.configFile === undefined) await writeFile(configFile, JSON.stringify(options.config ?? { mcpServers: {}, plugins: { 'map-tools': false } }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataPath = options.dataPath ?? join(folder, 'data');
  const logFile = join(folder, 'hub.log');
  // Left open: the logger may still flush into it as the hub closes; the test process's exit closes it.
  const logTo = { fd: openSync(logFile, 'w') };
  const given: Record<string, string | undefined> = {
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: url,
    DATA_PATH: dataPath,
    HUB_CONFIG: configFile,
    HUB_PASSWORD: 'correct horse',
    LOG_LEVEL: 'silent',
    ...env,
  };
  const hubEnv = Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const started = await startHub(hubEnv, { logTo });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= started.close());
  t.teardown(close);
  const log = () => readFileSync(logFile, 'utf8');
  const logs = () =>
    log()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogRecord);
  const waitFor = <T>(what: string, check: () => T | undefined): Promise<T> => waitForValue(what, check, log);
  return {
    url,
    port,
    dataPath,
    configFile,
    env: hubEnv,
    log,
    logs,
    waitForLog: (what, match) => waitFor(what, () => logs().find(match)),
    waitForLogText: (what, match) =>
      waitFor(what, () => {
        const text = log();
        return match(text) ? text : undefined;
      }),
    hub: started.hub,
    close,
  };
}
