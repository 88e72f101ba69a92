import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath } from './cli.js';
import { waitForValue } from './wait.js';
import { freePort } from './net.js';

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface HubBin {
  url: string;
  folder: string;
  configFile: string;
  dataPath: string;
  /** The environment the hub runs with, for `hub-admin` beside it. */
  env: Record<string, string>;
  /** Everything the process printed on stdout (its JSON log) and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** The log records so far. */
  logs(): LogRecord[];
  /** Waits until a log record matches (bounded generously; not a timing assertion). */
  waitForLog(what: string, match: (record: LogRecord) => boolean): Promise<LogRecord>;
  signal(name: NodeJS.Signals): void;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface HubBinOptions {
  /** Written to mcp.json in the hub's folder (JSON-encoded unless a string); none when undefined. */
  config?: unknown;
  /** Added to the test's environment; a variable given as undefined is unset. */
  env?: Record<string, string | undefined>;
  /** Reuse a data folder, for restarts. */
  dataPath?: string;
  /** The folder the hub runs in and its mcp.json is written to; a new one by default. */
  folder?: string;
  /** The hub CLI to run; this checkout's by default. */
  bin?: string;
}

/**
 * The real `hub` CLI in a folder of its own (config file, DATA_PATH), on a free loopback
 * port, logging JSON on stdout; ready once /health answers. Stopped at teardown.
 */
export async function startHubBin(t: { teardown(fn: () => unknown): void }, options: HubBinOptions = {}): Promise<HubBin> {
  const folder = options.folder ?? (await mkdtemp(join(tmpdir(), 'hub-bin-')));
  const configFile = join(folder, 'mcp.json');
  if (options.config !== undefined) await writeFile(configFile, typeof options.config === 'string' ? options.config : JSON.stringify(options.config, null, 2));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataPath = options.dataPath ?? join(folder, 'data');
  const env = defined({ ...process.env, HOST: '127.0.0.1', PORT: String(port), HUB_CONFIG: configFile, DATA_PATH: dataPath, LOG_FORMAT: 'json', ...options.env });
  const child = spawn(process.execPath, [options.bin ?? cliPath('hub')], { env, cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  t.teardown(stop);
  const logs = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogRecord);
  const waitFor = <T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> =>
    waitForValue(
      what,
      async () => {
        const found = await check();
        if (found === undefined && child.exitCode !== null) throw new Error(`the hub exited with ${child.exitCode} while waiting for ${what}: ${stderr}`);
        return found;
      },
      () => stdout + stderr,
    );
  await waitFor('the hub to serve', () =>
    fetch(`${url}/health`).then(
      (response) => (response.ok ? true : undefined),
      () => undefined,
    ),
  );
  return {
    url,
    folder,
    configFile,
    dataPath,
    env,
    stdout: () => stdout,
    stderr: () => stderr,
    logs,
    waitForLog: (what, match) => waitFor(what, () => logs().find(match)),
    signal: (name) => void child.kill(name),
    exited,
    stop,
  };
}

/** An environment without the variables set to undefined (unset, not the string "undefined"). */
function defined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
