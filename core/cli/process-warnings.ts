/** Where a warning is logged: the hub's pino logger, or anything with its `warn`. */
export interface WarningLog {
  warn(record: object, message: string): void;
}

/**
 * The process's warnings (MaxListenersExceeded, deprecations, experimental features) as
 * records of the hub's JSON log instead of Node's plain text on stderr, which a log
 * collector reads as a line without level or fields. Node's own printer is removed at
 * once; warnings raised before the logger exists are kept and logged when it is given.
 * For the hub's CLIs only: a hub embedded in another app leaves that app's process alone.
 */
export function logProcessWarnings(): (log: WarningLog) => void {
  let target: WarningLog | undefined;
  const early: Error[] = [];
  const write = (log: WarningLog, warning: Error & { code?: string }): void =>
    log.warn({ warning: { name: warning.name, message: warning.message, ...(warning.code && { code: warning.code }), stack: warning.stack } }, `${warning.name}: ${warning.message}`);
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error) => {
    if (target) write(target, warning);
    else if (early.length < MAX_EARLY_WARNINGS) early.push(warning);
  });
  return (log) => {
    target = log;
    early.splice(0).forEach((warning) => write(log, warning));
  };
}

/** Warnings kept before the logger exists: a start-up that warns in a loop must not grow memory. */
const MAX_EARLY_WARNINGS = 100;
