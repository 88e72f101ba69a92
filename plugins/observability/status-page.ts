import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PluginHub } from '../../core/plugin/index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import { escapeHtml } from '../../core/plugin/pages.js';
import type { ServerTimes } from './lifecycle.js';
import type { RecentCalls, RecentFigures } from './recent.js';

const TROUBLED = new Set(['down', 'stopped', 'unauthorized']);

export interface StatusSources {
  recent(server: string): RecentCalls | undefined;
  times(server: string): ServerTimes | undefined;
}

/**
 * `/status`, for the operator, behind the hub's operator login (`hub.operator`: one
 * session for every page of the hub): every server with its status and why, its tools,
 * its calls and errors in the last hour with p50 and p99, when it last started and came
 * up, and whether it waits for an upstream login; a link to every other operator page
 * (`hub.pages`) and what waits for the operator there (`OperatorPage.attention`). The page
 * reloads itself and works without scripts, on a phone too.
 */
export async function registerStatusPage(app: FastifyInstance, hub: PluginHub, sources: StatusSources, refreshSeconds: number): Promise<void> {
  await hub.operator.pages(app, (pages) => {
    pages.get('/status', { onRequest: hub.operator.requireSession }, async (_request, reply) => statusPage(reply, hub, sources, refreshSeconds));
  });
}

async function statusPage(reply: FastifyReply, hub: PluginHub, sources: StatusSources, refreshSeconds: number): Promise<FastifyReply> {
  const now = Date.now();
  const children = hub.servers.list();
  const troubled = children.filter((child) => TROUBLED.has(child.status));
  const { operator } = hub;
  const pages = hub.pages.values();
  const waiting = (await Promise.all(pages.map(async (page) => ({ page, note: await page.attention?.() })))).filter((entry) => entry.note !== undefined);
  const alert =
    troubled.length === 0
      ? ''
      : `<section role="alert" aria-labelledby="attention"><h2 id="attention">${troubled.length === 1 ? '1 server needs' : `${troubled.length} servers need`} attention</h2><ul>${troubled
          .map((child) => `<li><a href="#server-${escapeHtml(child.name)}">${escapeHtml(child.name)}</a>: ${escapeHtml(child.status)}${child.problem ? ` (${escapeHtml(child.problem)})` : ''}</li>`)
          .join('')}</ul></section>`;
  const notes =
    waiting.length === 0
      ? ''
      : `<section role="alert" aria-labelledby="waiting"><h2 id="waiting">Waiting for an operator</h2><ul>${waiting
          .map(({ page, note }) => `<li><a href="${escapeHtml(operator.url(page.path))}">${escapeHtml(page.title)}</a>: ${escapeHtml(note ?? '')}</li>`)
          .join('')}</ul></section>`;
  const rows = children.map((child) => row(child, sources.recent(child.name)?.figures(now), sources.times(child.name), now)).join('\n');
  const body = `<nav aria-label="Status page"><a class="primary" href="${escapeHtml(operator.url('/status'))}">Refresh now</a><span>Refreshes every ${refreshSeconds} s. Updated <time datetime="${new Date(now).toISOString()}">${formatTime(now)}</time>.</span>${pages
    .map((page) => `<a href="${escapeHtml(operator.url(page.path))}">${escapeHtml(page.title)}</a>`)
    .join('')}</nav>
${alert}${notes}
<h2 id="servers">Servers</h2>
${
  children.length === 0
    ? '<p>No server is configured.</p>'
    : `<table aria-labelledby="servers"><thead><tr><th scope="col">Server</th><th scope="col">Status</th><th scope="col" class="num">Tools</th><th scope="col" class="num">Calls (1 h)</th><th scope="col" class="num">Errors (1 h)</th><th scope="col" class="num">p50</th><th scope="col" class="num">p99</th><th scope="col">Last start</th><th scope="col">Last up</th><th scope="col">Upstream login</th></tr></thead>
<tbody>${rows}</tbody></table>`
}
<h2>Hub</h2><p>Version ${escapeHtml(hub.version)}, ${children.length} server${children.length === 1 ? '' : 's'}. Metrics for machines are at <code>${escapeHtml(operator.url('/metrics'))}</code>.</p>`;
  return operator.sendPage(reply, 200, 'Hub status', body, { wide: true, refreshSeconds });
}

function row(child: ServerView, figures: RecentFigures | undefined, times: ServerTimes | undefined, now: number): string {
  const cell = (label: string, content: string, className?: string) => `<td data-label="${label}"${className ? ` class="${className}"` : ''}>${content}</td>`;
  const troubled = TROUBLED.has(child.status);
  const status = `<span class="status ${troubled ? 'bad' : child.status === 'up' ? 'ok' : ''}">${escapeHtml(child.status)}</span>${child.problem ? `<br><span class="reason">${escapeHtml(child.problem)}</span>` : ''}`;
  const errors = figures?.errors ?? 0;
  const upstream = !('oauth' in child.entry) ? 'not used' : child.status === 'unauthorized' ? '<span class="bad">login needed</span>' : 'configured';
  return `<tr id="server-${escapeHtml(child.name)}"><th scope="row" data-label="Server">${escapeHtml(child.name)}</th>${cell('Status', status)}${cell('Tools', tools(child), 'num tools')}${cell(
    'Calls (1 h)',
    String(figures?.calls ?? 0),
    'num calls',
  )}${cell('Errors (1 h)', String(errors), `num errors${errors > 0 ? ' bad' : ''}`)}${cell('p50', milliseconds(figures?.p50Ms), 'num')}${cell('p99', milliseconds(figures?.p99Ms), 'num')}${cell(
    'Last start',
    times?.lastStart ? `${shortTime(times.lastStart.at, now)} (${times.lastStart.reason})` : 'not yet',
  )}${cell('Last up', times?.lastUp ? `${shortTime(times.lastUp.at, now)} after ${times.lastUp.seconds.toFixed(2)} s` : 'not yet')}${cell('Upstream login', upstream)}</tr>`;
}

/** The tools offered, and how many a tool gate withholds (awaiting an operator's approval). */
function tools(child: ServerView): string {
  if (!child.toolsKnown) return 'not yet known';
  const withheld = child.withheldTools.length;
  return `${child.tools.length}${withheld > 0 ? `<br><span class="bad">${withheld} withheld</span>` : ''}`;
}

function milliseconds(value: number | undefined): string {
  if (value === undefined) return '–';
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

function formatTime(at: number): string {
  return `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The time of day for today's events, the date too for older ones; the full time is in `datetime`. */
function shortTime(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  const shown = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? `${iso.slice(11, 19)} UTC` : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  return `<time datetime="${iso}">${shown}</time>`;
}
