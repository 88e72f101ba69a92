import { Type, type Static } from 'typebox';

/**
 * How long the hub waits for and on its children. The defaults are the product's; tests
 * and embedders shorten them through the kernel's `children` option.
 */
export const ChildTimings = Type.Object({
  idleTimeoutMs: Type.Integer({ minimum: 0, default: 3_600_000, description: 'An on-demand server sleeps after this long unused; 0 never sleeps it (IDLE_TIMEOUT_MINUTES).' }),
  wakeBudgetMs: Type.Integer({ minimum: 1, default: 120_000, description: 'How long a wake keeps trying before the server is reported down.' }),
  backoffBaseMs: Type.Integer({ minimum: 1, default: 1_000, description: 'First restart delay; it doubles with every consecutive failure.' }),
  backoffMaxMs: Type.Integer({ minimum: 1, default: 300_000, description: 'The longest restart delay.' }),
  pingIntervalMs: Type.Integer({ minimum: 0, default: 30_000, description: 'How often a running child is pinged; 0 disables pings.' }),
  pingTimeoutMs: Type.Integer({ minimum: 1, default: 10_000, description: 'A ping unanswered for this long counts as a crash.' }),
  crashLoopLimit: Type.Integer({ minimum: 1, default: 5, description: 'Consecutive crashes without a use after which an on-demand server is parked (stopped).' }),
  stableAfterMs: Type.Integer({ minimum: 1, default: 60_000, description: 'A child up this long has its crash count cleared.' }),
  failedStartMemoryMs: Type.Integer({
    minimum: 0,
    default: 2_000,
    description: 'A child that ended before its handshake is not started again for this long: uses in between get the same error.',
  }),
  relistBaseMs: Type.Integer({ minimum: 1, default: 5_000, description: 'A child that cannot be watched for list changes is re-listed after this long; the wait doubles while nothing changes.' }),
  relistMaxMs: Type.Integer({ minimum: 1, default: 300_000, description: 'The longest wait between re-listings of a child that cannot be watched.' }),
});
export type ChildTimings = Static<typeof ChildTimings>;

export const DEFAULT_CHILD_TIMINGS: ChildTimings = {
  idleTimeoutMs: 3_600_000,
  wakeBudgetMs: 120_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 300_000,
  pingIntervalMs: 30_000,
  pingTimeoutMs: 10_000,
  crashLoopLimit: 5,
  stableAfterMs: 60_000,
  failedStartMemoryMs: 2_000,
  relistBaseMs: 5_000,
  relistMaxMs: 300_000,
};

/** The delay before restart number `failures` (1-based): base, 2 x base, 4 x base, ... up to max. */
export function backoffDelay(failures: number, timings: Pick<ChildTimings, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  return Math.min(timings.backoffMaxMs, timings.backoffBaseMs * 2 ** exponent);
}
