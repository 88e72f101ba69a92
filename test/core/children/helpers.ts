import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ChildClock } from '../../../core/children/clock.js';
import type { ChildTimings } from '../../../core/children/timings.js';
import type { Hub } from '../../../core/hub.js';
import { hub, onKernel } from '../../../core/kernel.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Fast timings for tests: short budgets and back-offs, no pings and no idling unless asked. */
export const FAST: Partial<ChildTimings> = {
  wakeBudgetMs: 30_000,
  backoffBaseMs: 100,
  backoffMaxMs: 2_000,
  pingIntervalMs: 0,
  idleTimeoutMs: 0,
  stableAfterMs: 60_000,
};

/** The compiled fixture child `name` (test/fixtures/children/<name>.ts). */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/children/${name}.js`, import.meta.url));
}

/** A stdio entry running fixture `name`, recording its starts into `startsFile`. */
export function fixtureEntry(name: string, startsFile: string, extra: { env?: Record<string, string>; keepAlive?: boolean } = {}) {
  return {
    command: process.execPath,
    args: [fixture(name)],
    env: { FIXTURE_STARTS: startsFile, ...extra.env },
    ...(extra.keepAlive === undefined ? {} : { keepAlive: extra.keepAlive }),
  };
}

export async function tempDir(t: Teardown): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'hub-children-'));
  t.teardown(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface StartedHub {
  app: FastifyInstance;
  hub: Hub;
  dataPath: string;
  logs: LogLine[];
}

/**
 * A hub with the given config and timings, its log captured. Not listening: these tests
 * talk to the children through the hub's own objects. Closed by the test's teardown.
 */
export async function startHub(t: Teardown, options: { config: unknown; dataPath?: string; timings?: Partial<ChildTimings>; env?: Record<string, string>; clock?: ChildClock }): Promise<StartedHub> {
  const dataPath = options.dataPath ?? (await tempDir(t));
  const logs: LogLine[] = [];
  const app = Fastify({ pluginTimeout: 0, logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } } });
  let context: Hub | undefined;
  await app.register(hub, {
    [onKernel]: (created) => {
      context = created;
      if (options.clock) created.children.useClock(options.clock);
    },
    config: options.config,
    env: { DATA_PATH: dataPath, ...options.env },
    settings: { dataPath },
    children: { ...FAST, ...options.timings },
  });
  await app.ready();
  t.teardown(() => app.close());
  if (!context) throw new Error('the hub plugin did not call setup');
  return { app, hub: context, dataPath, logs };
}

/** The starts a fixture recorded: time and pid, in order. */
export function starts(file: string): { at: number; pid: number }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [at, pid] = line.split(' ').map(Number);
      return { at: at ?? 0, pid: pid ?? 0 };
    });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds; fails with `what` after a generous limit. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
