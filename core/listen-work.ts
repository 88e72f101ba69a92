import type { FastifyBaseLogger } from 'fastify';
import { StartupError, errorMessage } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers while the hub's work once it listens runs or after it failed
     * (`ListenWork`), rather than waiting: the probes, which say themselves whether the hub
     * is ready.
     */
    whileStarting?: boolean;
  }
}

/**
 * What the hub does once its server listens (the address, so the base URL, is known) and
 * before it answers a request: the kernel's end of the operator sessions after a password
 * rotation, a plugin's note of the URL it serves on (`PluginHub.beforeServing`).
 *
 * Fastify's `onListen` hooks are no place for it: fastify 5 calls them after `listen()`
 * has resolved, while the server already takes connections, and goes on without waiting
 * for an async one (lib/server.js, lib/hooks.js `onListenHookRunner`); nothing can await
 * them. So the kernel starts this work at the server's `listening` event, the hub's routes
 * hold each request until it is done (`pending`; the probes answer at once, `/readyz` with
 * 503 until then), and the standalone hub's start resolves, and logs that it listens, only
 * then (`done`). Work that fails leaves the hub answering 503; the standalone hub stops.
 */
export class ListenWork {
  readonly #works: { owner: string; work: () => void | Promise<void> }[] = [];
  #run: Promise<void> | undefined;
  #finished = false;
  #failure: string | undefined;

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Adds `owner`'s work, run after the work added before it. Only before the server listens. */
  add(owner: string, work: () => void | Promise<void>): void {
    if (this.#run) throw new StartupError(`${owner} added work to do before the hub serves once it already listened: add it in register (or setup)`);
    this.#works.push({ owner, work });
  }

  /** Runs the work, once: every piece, in the order added, each after the last (a failure is logged, and the rest still runs). */
  start(): void {
    if (this.#run) return;
    this.#run = this.#runAll();
    this.#run.then(
      () => void (this.#finished = true),
      (error: unknown) => void (this.#failure = errorMessage(error)),
    );
  }

  /** Why the hub is not ready yet: undefined once the work is done, and before the server listens. */
  get unfinished(): string | undefined {
    if (this.#finished || !this.#run) return undefined;
    return this.#failure ?? 'the hub is finishing its start-up';
  }

  /**
   * What a request waits for: the work while it runs, or its failure. Undefined once it is
   * done, and before the server listens (a request then comes from `app.inject`).
   */
  get pending(): Promise<void> | undefined {
    return this.#finished ? undefined : this.#run;
  }

  /** The work's end, rejected with a `StartupError` when some of it failed; undefined until the server listens. */
  get done(): Promise<void> | undefined {
    return this.#run;
  }

  async #runAll(): Promise<void> {
    let failure: StartupError | undefined;
    for (const { owner, work } of this.#works) {
      try {
        await work();
      } catch (error) {
        const message = `${owner}'s work once the hub listens failed: ${errorMessage(error)}`;
        this.log.error({ owner, err: errorMessage(error) }, `${message} (the hub's routes answer 503)`);
        failure ??= new StartupError(message, { cause: error });
      }
    }
    if (failure) throw failure;
  }
}
