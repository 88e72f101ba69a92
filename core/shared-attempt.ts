/**
 * A one-time piece of work (an index, a key, a file read) that every caller waits on: the
 * first call starts it and later calls share its promise, while a failure is forgotten so
 * that the next call tries again rather than failing for ever.
 */
export function sharedAttempt<T>(attempt: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= attempt().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
