import { TOOL_CALL_OUTCOMES, type ToolCallOutcome } from '../../core/plugin/observe.js';
import { DURATION_BUCKETS, type HubMetrics } from './metrics.js';

/** Calls by outcome and their durations (cumulative bucket counts, as Prometheus keeps them). */
export interface CallFigures {
  readonly outcomes: Record<ToolCallOutcome, number>;
  /** Calls at or below each of `DURATION_BUCKETS`, then all calls. */
  readonly buckets: number[];
}

export function emptyFigures(): CallFigures {
  return { outcomes: Object.fromEntries(TOOL_CALL_OUTCOMES.map((outcome) => [outcome, 0])) as Record<ToolCallOutcome, number>, buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0) };
}

export function totalCalls(figures: CallFigures): number {
  return TOOL_CALL_OUTCOMES.reduce((sum, outcome) => sum + figures.outcomes[outcome], 0);
}

export function failedCalls(figures: CallFigures): number {
  return totalCalls(figures) - figures.outcomes.ok;
}

/**
 * `after` less `before`: what happened between two readings. Counters only grow, except
 * a server a reload removed and added again, whose count starts again from 0: nothing
 * is ever less than 0.
 */
export function difference(after: CallFigures, before: CallFigures): CallFigures {
  const figures = emptyFigures();
  for (const outcome of TOOL_CALL_OUTCOMES) figures.outcomes[outcome] = Math.max(0, after.outcomes[outcome] - before.outcomes[outcome]);
  after.buckets.forEach((count, index) => (figures.buckets[index] = Math.max(0, count - (before.buckets[index] ?? 0))));
  return figures;
}

function add(into: CallFigures, from: CallFigures): void {
  for (const outcome of TOOL_CALL_OUTCOMES) into.outcomes[outcome] += from.outcomes[outcome];
  from.buckets.forEach((count, index) => (into.buckets[index] = (into.buckets[index] ?? 0) + count));
}

/**
 * The `fraction` quantile of the calls in cumulative `buckets`, in seconds, estimated as
 * Prometheus' `histogram_quantile` does: linearly within the bucket it falls in (the
 * first from 0); one above the last finite bound is that bound. Undefined without calls.
 */
export function quantile(fraction: number, buckets: readonly number[]): number | undefined {
  const total = buckets[buckets.length - 1] ?? 0;
  if (total <= 0) return undefined;
  const rank = fraction * total;
  for (let index = 0; index < DURATION_BUCKETS.length; index += 1) {
    const count = buckets[index] ?? 0;
    if (count < rank) continue;
    const lower = index === 0 ? 0 : (DURATION_BUCKETS[index - 1] as number);
    const below = index === 0 ? 0 : (buckets[index - 1] ?? 0);
    const upper = DURATION_BUCKETS[index] as number;
    return count === below ? upper : lower + ((upper - lower) * (rank - below)) / (count - below);
  }
  return DURATION_BUCKETS[DURATION_BUCKETS.length - 1];
}

/** Every server's calls, by tool, as the registry holds them now. */
export type ToolFigures = Map<string, Map<string, CallFigures>>;

export async function readToolFigures(metrics: HubMetrics): Promise<ToolFigures> {
  const figures: ToolFigures = new Map();
  const of = (labels: Partial<Record<string, string | number>>): CallFigures | undefined => {
    const { server, tool } = labels;
    if (typeof server !== 'string' || typeof tool !== 'string') return undefined;
    let tools = figures.get(server);
    if (!tools) figures.set(server, (tools = new Map<string, CallFigures>()));
    let found = tools.get(tool);
    if (!found) tools.set(tool, (found = emptyFigures()));
    return found;
  };
  for (const { labels, value } of (await metrics.toolCalls.get()).values) {
    const found = of(labels);
    const outcome = labels.outcome as ToolCallOutcome;
    if (found && outcome in found.outcomes) found.outcomes[outcome] += value;
  }
  const bucketIndex = new Map(DURATION_BUCKETS.map((bound, index) => [bound, index]));
  for (const { labels, value, metricName } of (await metrics.toolDuration.get()).values) {
    if (metricName !== 'hub_tool_call_duration_seconds_bucket') continue;
    const found = of(labels);
    // The bucket's bound is a label the histogram adds to its own.
    const le = (labels as { le?: string | number }).le;
    const index = le === '+Inf' ? DURATION_BUCKETS.length : bucketIndex.get(Number(le));
    if (found && index !== undefined) found.buckets[index] = (found.buckets[index] ?? 0) + value;
  }
  return figures;
}

/** One server's figures, its tools summed. */
export function serverFigures(tools: ReadonlyMap<string, CallFigures> | undefined): CallFigures {
  const sum = emptyFigures();
  for (const figures of tools?.values() ?? []) add(sum, figures);
  return sum;
}

const MINUTE_MS = 60_000;
/** How far back "recent" reaches. */
export const RECENT_MS = 60 * MINUTE_MS;

/**
 * The registry's figures per server, read once a minute for the last hour, so that the
 * status page can say what happened in the last hour (a difference of two readings of
 * counters that never reset, so a reload changes nothing) without any work per call.
 */
export class RecentHistory {
  readonly #readings: Array<{ at: number; servers: Map<string, CallFigures> }> = [];

  /** Keeps a reading taken at `at`, dropping those older than the window needs. */
  record(at: number, figures: ToolFigures): void {
    const servers = new Map<string, CallFigures>();
    for (const [server, tools] of figures) servers.set(server, serverFigures(tools));
    this.#readings.push({ at, servers });
    while (this.#readings.length > 1 && (this.#readings[1]?.at ?? at) <= at - RECENT_MS) this.#readings.shift();
  }

  /**
   * What `server` did since the oldest reading within the last hour (since the first
   * reading when the hub is younger), given its figures now; and since when.
   */
  recent(server: string, now: CallFigures): { figures: CallFigures; since: number | undefined } {
    const base = this.#readings[0];
    return { figures: difference(now, base?.servers.get(server) ?? emptyFigures()), since: base?.at };
  }
}
