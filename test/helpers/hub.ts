import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Hub } from '../../core/hub.js';
import { hub, onKernel } from '../../core/kernel.js';
import type { PluginHub } from '../../core/plugin-hub.js';
import { startHub } from '../../core/server.js';
import { freePort } from './net.js';

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
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  t.teardown(() => app.close());
  if (!context) throw new Error('the hub plugin did not hand over the kernel');
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

/**
 * The standalone hub (`startHub`, what the `hub` bin runs: the server's timeouts,
 * connection cap and trusted proxies included) in this process, with oauth-as on and no
 * servers, on a loopback port of its own with BASE_URL its real address. Closed by the
 * test's teardown.
 */
export async function startStandaloneHub(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}): Promise<{ url: string; port: number; dataPath: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'standalone-hub-'));
  const config = join(folder, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: {}, plugins: { 'map-tools': false } }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataPath = join(folder, 'data');
  const started = await startHub({ HOST: '127.0.0.1', PORT: String(port), BASE_URL: url, DATA_PATH: dataPath, HUB_CONFIG: config, HUB_PASSWORD: 'correct horse', LOG_LEVEL: 'silent', ...env });
  t.teardown(() => started.close());
  return { url, port, dataPath };
}
