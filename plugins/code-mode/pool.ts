import { AsyncResource } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';
import { Worker } from 'node:worker_threads';
import { type FromWorker, memoryError, type RunOutcome, type SandboxLimits, timeoutError, type ToolAnswer, type ToWorker } from './run-protocol.js';

/** How the hub answers a program's tool call; `signal` aborts when the run ends. */
export type HubCall = (server: string, tool: string, args: Record<string, unknown> | undefined, signal: AbortSignal) => Promise<ToolAnswer>;

export interface RunRequest {
  code: string;
  limits: SandboxLimits;
  serverNames: readonly string[];
  call: HubCall;
  /** The caller's cancellation. */
  cancel: AbortSignal;
}

/**
 * The heap a worker's own JavaScript may use besides the program's share, in MB: its
 * modules and the bridge's texts (5.4 MB of heap in use, measured after three runs of
 * sandbox.js in a thread of its own). What QuickJS allocates is the instance's WebAssembly memory, bounded by
 * `memoryMb` in sandbox.ts; the worker's heap, where the tool results and the printed
 * lines cross, is bounded by the same option on top of this.
 */
const WORKER_BASE_HEAP_MB = 16;
const WORKER_YOUNG_GENERATION_MB = 4;

/**
 * Sandbox workers: one per run in progress, so at most `maxConcurrentRuns` (the run slots
 * hold runs to it, and a run never waits for a worker), started at the first run that finds
 * none idle, one run each at a time. The hub's thread never waits on a program: the
 * deadline is a timer here, and a worker whose run is over its time, cancelled, or failed
 * is terminated (whatever its program is doing, even a loop that never yields) and
 * replaced by a new one when a run next needs it. A worker whose program ended is reused
 * (its next run gets a fresh QuickJS instance all the same).
 */
export class SandboxPool {
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();
  #runs = 0;

  constructor(readonly memoryMb: number) {}

  run(request: RunRequest): Promise<RunOutcome> {
    const worker = this.#idle.pop() ?? this.#start();
    worker.ref();
    const run = ++this.#runs;
    const { limits } = request;
    const calls = new AbortController();
    // Each tool call in flight listens on the run's signal; a program may have them all out at once.
    setMaxListeners(limits.maxToolCalls + 10, calls.signal);
    let output = '';
    return new Promise<RunOutcome>((resolve) => {
      let finished = false;
      const finish = (outcome: RunOutcome, keep: boolean): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        request.cancel.removeEventListener('abort', onCancel);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        calls.abort();
        if (keep) {
          worker.unref();
          this.#idle.push(worker);
        } else {
          this.#all.delete(worker);
          void worker.terminate();
        }
        resolve(outcome);
      };
      // The worker's messages arrive in the context it was started in (another run's, maybe):
      // its calls are made in this run's, so that they are spans under run_code's own.
      const onMessage = AsyncResource.bind((message: FromWorker): void => {
        if (message.run !== run) return;
        if (message.type === 'print') output += `${message.line}\n`;
        else if (message.type === 'done') finish(message.outcome, true);
        else
          void request.call(message.server, message.tool, message.args, calls.signal).then((answer) => {
            if (!finished) worker.postMessage({ type: 'answer', run, call: message.call, answer } satisfies ToWorker);
          });
      });
      const onError = (error: Error & { code?: string }): void =>
        finish({ ok: false, output, error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? memoryError(limits) : 'The sandbox failed and the run was stopped.' }, false);
      const onExit = (): void => finish({ ok: false, output, error: 'The sandbox failed and the run was stopped.' }, false);
      const onCancel = (): void => finish({ ok: false, output, error: 'The caller cancelled the run.' }, false);
      const timer = setTimeout(() => finish({ ok: false, output, error: timeoutError(limits) }, false), limits.timeoutMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      request.cancel.addEventListener('abort', onCancel);
      if (request.cancel.aborted) return onCancel();
      worker.postMessage({ type: 'run', run, code: request.code, limits, serverNames: request.serverNames } satisfies ToWorker);
    });
  }

  /** Ends every worker (the hub is closing). */
  async close(): Promise<void> {
    const all = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  #start(): Worker {
    const worker = new Worker(new URL('./worker.js', import.meta.url), {
      name: 'code-mode sandbox',
      // The hub's flags (a preloaded module, heap sizes) and environment (its secrets) are
      // not the sandbox's business.
      execArgv: [],
      env: {},
      // Nothing a worker writes reaches the hub's own streams (hub-stdio's stdout is its MCP channel).
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_BASE_HEAP_MB + this.memoryMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    // A worker that dies between runs is forgotten; its run, if any, hears of it itself.
    worker.on('exit', () => {
      this.#all.delete(worker);
      const index = this.#idle.indexOf(worker);
      if (index >= 0) this.#idle.splice(index, 1);
    });
    worker.on('error', () => undefined);
    worker.stdout.resume();
    worker.stderr.resume();
    this.#all.add(worker);
    return worker;
  }
}
