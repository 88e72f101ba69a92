import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { getDefaultEnvironment, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import { HubStdioTransport, type PlainReadBuffer } from '../../core/plugin/child-type.js';

/** How long the rest of a process group has after its leader exited, between SIGTERM and SIGKILL. */
const GROUP_GRACE_MS = 2000;

/** Leaders of the process groups this hub started that may still have members: ended when the hub's process exits. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * The SDK's stdio transport with each child in a process group of its own (POSIX), so
 * that what a server started through `npx`, `uvx` or a shell script forks ends with it:
 * when the direct child exits (stopped, slept, reloaded, crashed, or closed at the hub's
 * stop) the rest of its group gets SIGTERM, then SIGKILL after a grace. When the hub's
 * own process exits (a hard stop included), every group still alive gets SIGKILL.
 *
 * The SDK spawns with options it does not let a caller set (`detached` among them), so
 * `start` spawns here, with the SDK's environment and stdio, and hands the process to the
 * transport, which sends, closes and reports the close as for a process of its own. On
 * Windows, which has no process groups, the SDK's own start is used. It also notes how
 * the process ended: the SDK reports only that the connection closed.
 */
export class GroupedStdioTransport extends HubStdioTransport {
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly #params: StdioServerParameters;
  readonly #buffer: PlainReadBuffer;

  constructor(params: StdioServerParameters, buffer: PlainReadBuffer) {
    super(params, buffer);
    this.#params = params;
    this.#buffer = buffer;
  }

  override async start(): Promise<void> {
    if (process.platform === 'win32') {
      await super.start();
      this.childProcess()?.once('exit', (code, signal) => (this.exit = { code, signal }));
      return;
    }
    if (this.childProcess()) throw new Error('StdioClientTransport already started');
    const params = this.#params;
    const child = spawn(params.command, params.args ?? [], {
      env: { ...getDefaultEnvironment(), ...params.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: true,
      ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
    });
    this.adoptProcess(child);
    const stderr = this.stderr;
    if (stderr instanceof Writable) child.stderr.pipe(stderr);
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stdout.on('error', (error) => this.onerror?.(error));
    child.stdout.on('data', (chunk: Buffer) => this.#received(chunk));
    child.on('close', () => {
      if (this.childProcess() === child) this.adoptProcess(undefined);
      this.onclose?.();
    });
    await new Promise<void>((resolve, reject) => {
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        const leader = child.pid;
        if (leader !== undefined) {
          watchGroup(leader);
          child.once('exit', () => endGroup(leader));
        }
        resolve();
      });
    });
    child.once('exit', (code, signal) => (this.exit = { code, signal }));
  }

  #received(chunk: Buffer): void {
    try {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message !== null; message = this.#buffer.readMessage()) this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
      this.close().catch(() => undefined);
    }
  }
}

function watchGroup(leader: number): void {
  liveGroups.add(leader);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' runs synchronously at any exit of the hub's process that Node sees (a hard stop
  // by process.exit included); only a SIGKILL of the hub itself gets past it.
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

/** The leader exited: what is left of its group is asked to stop, then killed. */
function endGroup(leader: number): void {
  if (!signalGroup(leader, 'SIGTERM')) {
    liveGroups.delete(leader);
    return;
  }
  // The id cannot name another group while this one has members (POSIX keeps a group's id
  // from reuse while it exists), and an empty group answers ESRCH: the kill is aimed right.
  setTimeout(() => {
    signalGroup(leader, 'SIGKILL');
    liveGroups.delete(leader);
  }, GROUP_GRACE_MS).unref();
}

/** Signals every process of the group; false when no process is left in it. */
function signalGroup(leader: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-leader, signal);
    return true;
  } catch {
    return false;
  }
}
