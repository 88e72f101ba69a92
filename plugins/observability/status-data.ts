import type { PluginHub } from '../../core/plugin/index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import type { ConfigReloadEvent, ToolCallOutcome } from '../../core/plugin/observe.js';
import { failedCalls, quantile, readToolFigures, type RecentHistory, serverFigures, totalCalls, type CallFigures } from './figures.js';
import type { ServerTimes } from './lifecycle.js';
import { HUB_SERVER, type HubMetrics } from './metrics.js';

const TROUBLED = new Set(['down', 'stopped', 'unauthorized']);

/** What an operator may do to a server now (the console's overview offers it, its API does it). */
export type ServerAction = 'wake' | 'sleep' | 'restart';

export interface CallSummary {
  calls: number;
  failed: number;
  outcomes: Record<ToolCallOutcome, number>;
  /** Milliseconds, estimated from the duration histogram's buckets; null without calls. */
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface ServerStatus {
  name: string;
  status: string;
  troubled: boolean;
  /** Why it is not serving, when it is not. */
  problem: string | null;
  alwaysRunning: boolean;
  /** `hub: false`: offered on its own endpoint only. */
  hidden: boolean;
  /** Null while the tool list was never seen. */
  toolCount: number | null;
  /** Tools a tool gate withholds from callers (awaiting an operator's approval), not in `toolCount`. */
  withheldTools: number;
  upstreamLogin: 'not used' | 'configured' | 'login needed';
  /** Since the hub started. */
  total: CallSummary;
  /** In the last hour (since `recentSince`). */
  recent: CallSummary;
  recentSince: string | null;
  restarts: number;
  crashes: number;
  lastStart: { at: string; reason: string } | null;
  lastUp: { at: string; seconds: number } | null;
  /** The last crash or failed start and why, kept after it recovered. */
  lastFailure: { at: string; kind: 'crash' | 'start'; reason: string } | null;
  actions: ServerAction[];
  /** Per tool since the hub started; `(unlisted)` gathers the names the server does not list. */
  tools: Array<{ name: string } & CallSummary>;
}

export interface ReloadRecord {
  at: number;
  event: ConfigReloadEvent;
}

export interface StatusData {
  generatedAt: string;
  hub: {
    version: string;
    startedAt: string;
    servers: number;
    /** `/hub`'s own tools since the start (a `call_tool` that reached a server counts as that server's call). */
    tools: Array<{ name: string } & CallSummary>;
    /** The last config reload, or null when none happened since the start. */
    lastReload: { at: string; trigger: string; outcome: 'applied' | 'refused'; error: string | null; added: string[]; removed: string[]; restarted: string[]; retuned: string[] } | null;
  };
  servers: ServerStatus[];
  /** What waits for the operator on the other operator pages (`OperatorPage.attention`), with the page. */
  waiting: Array<{ title: string; path: string; note: string }>;
}

export interface StatusSources {
  metrics: HubMetrics;
  history: RecentHistory;
  times(server: string): ServerTimes | undefined;
  lastReload(): ReloadRecord | undefined;
  startedAt: number;
}

/**
 * What the status page shows and `/status.json` gives, read from the metrics registry
 * (the same figures Prometheus scrapes, kept across reloads) and the servers' lifecycle.
 */
export async function statusData(hub: PluginHub, sources: StatusSources, now: number): Promise<StatusData> {
  const { metrics, history } = sources;
  metrics.sync();
  const figures = await readToolFigures(metrics);
  const restarts = await countsByServer(metrics.restarts);
  const crashes = await countsByServer(metrics.crashes);
  const reload = sources.lastReload();
  const children = hub.servers.list();
  const notes = await Promise.all(hub.pages.values().map(async (page) => ({ title: page.title, path: page.path, note: await page.attention?.() })));
  return {
    generatedAt: iso(now),
    hub: {
      version: hub.version,
      startedAt: iso(sources.startedAt),
      servers: children.length,
      tools: toolSummaries(figures.get(HUB_SERVER), (name) => hub.metaTools.has(name)),
      lastReload: reload
        ? {
            at: iso(reload.at),
            trigger: reload.event.trigger,
            outcome: reload.event.outcome,
            error: reload.event.error ?? null,
            added: [...reload.event.added],
            removed: [...reload.event.removed],
            restarted: [...reload.event.restarted],
            retuned: [...reload.event.retuned],
          }
        : null,
    },
    servers: children.map((child) => {
      const tools = figures.get(child.name);
      const total = serverFigures(tools);
      const recent = history.recent(child.name, total);
      const times = sources.times(child.name);
      return {
        name: child.name,
        status: child.status,
        troubled: TROUBLED.has(child.status),
        problem: child.problem ?? null,
        alwaysRunning: child.alwaysRunning,
        hidden: child.hidden,
        toolCount: child.toolsKnown ? child.tools.length : null,
        withheldTools: child.withheldTools.length,
        upstreamLogin: !('oauth' in child.entry) ? 'not used' : child.status === 'unauthorized' ? 'login needed' : 'configured',
        total: summary(total),
        recent: summary(recent.figures),
        recentSince: recent.since === undefined ? null : iso(recent.since),
        restarts: restarts.get(child.name) ?? 0,
        crashes: crashes.get(child.name) ?? 0,
        lastStart: times?.lastStart ? { at: iso(times.lastStart.at), reason: times.lastStart.reason } : null,
        lastUp: times?.lastUp ? { at: iso(times.lastUp.at), seconds: times.lastUp.seconds } : null,
        lastFailure: times?.lastFailure ? { at: iso(times.lastFailure.at), kind: times.lastFailure.kind, reason: times.lastFailure.reason } : null,
        actions: actionsFor(child),
        tools: toolSummaries(tools, (name) => child.findTool(name) !== undefined),
      };
    }),
    waiting: notes.flatMap(({ title, path, note }) => (note === undefined ? [] : [{ title, path, note }])),
  };
}

/** What the overview offers for a server in its status: wake a resting on-demand one, sleep an up one, restart one that ran or failed. */
export function actionsFor(child: ServerView): ServerAction[] {
  const actions: ServerAction[] = [];
  if (!child.alwaysRunning && (child.status === 'sleeping' || child.status === 'stopped' || child.status === 'down')) actions.push('wake');
  if (!child.alwaysRunning && child.status === 'up') actions.push('sleep');
  if (child.status === 'up' || child.status === 'down' || child.status === 'stopped') actions.push('restart');
  return actions;
}

/** The tools with calls or listed, busiest first. */
function toolSummaries(tools: ReadonlyMap<string, CallFigures> | undefined, listed: (name: string) => boolean): Array<{ name: string } & CallSummary> {
  return [...(tools ?? new Map<string, CallFigures>())]
    .map(([name, figures]) => ({ name, ...summary(figures) }))
    .filter((tool) => tool.calls > 0 || listed(tool.name))
    .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
}

function summary(figures: CallFigures): CallSummary {
  const p50 = quantile(0.5, figures.buckets);
  const p99 = quantile(0.99, figures.buckets);
  return {
    calls: totalCalls(figures),
    failed: failedCalls(figures),
    outcomes: { ...figures.outcomes },
    p50Ms: p50 === undefined ? null : p50 * 1000,
    p99Ms: p99 === undefined ? null : p99 * 1000,
  };
}

async function countsByServer(counter: HubMetrics['restarts']): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { labels, value } of (await counter.get()).values) {
    if (typeof labels.server === 'string') counts.set(labels.server, value);
  }
  return counts;
}

function iso(at: number): string {
  return new Date(at).toISOString();
}
