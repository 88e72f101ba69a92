/** Where an unhandled rejection is logged: the hub's pino logger, or anything with its `error`. */
export interface RejectionLog {
  error(record: object, message: string): void;
}

/**
 * A promise rejected with nobody to handle it, wherever it came from (a plugin's stray
 * promise, a library's), is logged with its stack and counted instead of ending the
 * process (Node's default since 15): one forgotten `.catch` must not take every caller's
 * calls down. Each distinct stack is logged once (a rejection on every call must not
 * flood the log); every one is counted (`count`, the hub's metric). Rejections before the
 * logger exists are kept and logged when it is given. For the hub's CLIs only: a hub
 * embedded in another app leaves that app's process alone.
 */
export function logUnhandledRejections(): (log: RejectionLog, count: () => void) => void {
  let target: { log: RejectionLog; count: () => void } | undefined;
  const early: unknown[] = [];
  const logged = new Set<string>();
  const write = (log: RejectionLog, reason: unknown): void => {
    const error = reason instanceof Error ? reason : undefined;
    const message = error ? `${error.name}: ${error.message}` : String(reason);
    const stack = error?.stack ?? message;
    if (logged.has(stack)) return;
    if (logged.size < MAX_DISTINCT_LOGGED) logged.add(stack);
    log.error({ err: { message, stack } }, `unhandled promise rejection (the hub goes on; it is counted in hub_unhandled_rejections_total): ${message}`);
  };
  process.on('unhandledRejection', (reason: unknown) => {
    if (target) {
      target.count();
      write(target.log, reason);
    } else if (early.length < MAX_EARLY) early.push(reason);
  });
  return (log, count) => {
    target = { log, count };
    for (const reason of early.splice(0)) {
      count();
      write(log, reason);
    }
  };
}

/** Distinct stacks remembered as logged: past this many, repeats are logged again rather than memory growing. */
const MAX_DISTINCT_LOGGED = 1000;
/** Rejections kept before the logger exists. */
const MAX_EARLY = 100;
