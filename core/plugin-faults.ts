import type { FastifyBaseLogger } from 'fastify';
import { errorMessage } from './errors.js';

/** The site of an observer of plugin failures themselves. */
export const FAULT_SITE = 'observe.pluginFault';

/** One plugin's failures at one site, as counted. */
export interface PluginFault {
  readonly plugin: string;
  /** Where the kernel called the plugin: `observe.toolCallStart`, `servers.observe.transition`, `toolGates.withheld`, ... */
  readonly site: string;
  readonly count: number;
}

/**
 * Code a plugin hands the kernel (observers, hooks, registry callbacks) runs isolated: a
 * throw, or the rejection of a promise it returns, is counted, logged the first time per
 * plugin and site (a listener on every call must not flood the log), and the hub and the
 * call go on. A `diagnostics_channel` subscriber that throws would otherwise end the
 * process (Node rethrows it on the next tick), and an `async` one that fails would leave
 * an unhandled rejection, which ends it as well.
 */
export class PluginFaults {
  readonly #counts = new Map<string, { plugin: string; site: string; count: number }>();

  constructor(
    private readonly log: FastifyBaseLogger,
    /** Tells observers (a metric counts failures); not called for a failure of such an observer itself, which would loop. */
    private readonly publish: (fault: PluginFault) => void = () => undefined,
  ) {}

  /** Counts and (once per plugin and site) logs a failure of `plugin`'s code at `site`. */
  record(plugin: string, site: string, error: unknown): void {
    const key = `${plugin}\u0000${site}`;
    const entry = this.#counts.get(key) ?? { plugin, site, count: 0 };
    entry.count += 1;
    this.#counts.set(key, entry);
    if (entry.count === 1) {
      this.log.error({ plugin, site, err: errorMessage(error) }, `plugin "${plugin}" failed at ${site}; the hub goes on (later failures there are counted, not logged)`);
    }
    if (site !== FAULT_SITE) this.publish({ ...entry });
  }

  /**
   * `fn` as `plugin`'s code at `site`: a throw is recorded and `fallback(error)` answers
   * instead; a promise it returns is handed on with its rejection recorded the same way
   * (it then resolves to the fallback), so that nothing it does is left unhandled.
   */
  guard<Args extends unknown[], Result>(plugin: string, site: string, fn: (...args: Args) => Result, fallback: (error: unknown) => Result): (...args: Args) => Result {
    return (...args) => {
      try {
        const result = fn(...args);
        if (!isThenable(result)) return result;
        return result.then(undefined, (error: unknown) => {
          this.record(plugin, site, error);
          return fallback(error);
        }) as Result;
      } catch (error) {
        this.record(plugin, site, error);
        return fallback(error);
      }
    };
  }

  /** Every plugin and site that failed, with how often. */
  list(): PluginFault[] {
    return [...this.#counts.values()].map((entry) => ({ ...entry }));
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
