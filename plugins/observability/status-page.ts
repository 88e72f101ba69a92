import { createHash, timingSafeEqual } from 'node:crypto';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import { Type } from 'typebox';
import { hashSecret, newSecret } from '../../core/plugin/auth.js';
import type { PluginHub } from '../../core/plugin/index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import { escapeHtml, pageWhenRefused, sendPage, tooManyAttemptsPage } from '../../core/plugin/pages.js';
import type { StoreCollection } from '../../core/plugin/store.js';
import type { ServerTimes } from './lifecycle.js';
import type { RecentCalls, RecentFigures } from './recent.js';

const SESSION_COOKIE = 'hub_status_session';
const CSRF_COOKIE = 'hub_status_csrf';
const PASSWORD_FORM_SECONDS = 15 * 60;
/** A working day: the page refreshes itself, and an operator should not be asked again mid-shift. */
const SESSION_SECONDS = 12 * 3600;
const TROUBLED = new Set(['down', 'stopped', 'unauthorized']);

// The hub's CSRF tokens are about 50 characters, never near this bound.
const PasswordForm = Type.Object({ csrf: Type.String({ maxLength: 512 }), password: Type.String({ maxLength: 1024 }) });

interface StatusSession {
  _id: string;
  expiresAt: Date;
}

export interface StatusSources {
  recent(server: string): RecentCalls | undefined;
  times(server: string): ServerTimes | undefined;
}

/**
 * `/status`, for the operator, behind the hub password (the same login and throttle as
 * `/upstreams`, with a session of its own): every server with its status and why, its
 * tools, its calls and errors in the last hour with p50 and p99, when it last started
 * and came up, and whether it waits for an upstream login. The page reloads itself and
 * works without scripts, on a phone too.
 */
export function registerStatusPage(plugin: FastifyInstance, hub: PluginHub, sources: StatusSources, refreshSeconds: number): void {
  const sessions: StoreCollection<StatusSession> = hub.store.collection<StatusSession>('observability_status_sessions');
  const secure = hub.settings.baseUrl.startsWith('https:');
  const login = hub.operatorLogin;
  // Made before the first session is kept, not at start: a hub nobody logs in to never touches its store for this.
  let indexed: Promise<void> | undefined;
  const ensureIndex = (): Promise<void> => (indexed ??= sessions.createIndex('expiresAt', { expireAfterSeconds: 0 }).catch((error: unknown) => {
    indexed = undefined;
    throw error;
  }));
  // TypeBox's compiler in this plugin's context, whatever the embedding app's Ajv does.
  plugin.setValidatorCompiler(TypeBoxValidatorCompiler);
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const expired = (reply: FastifyReply): FastifyReply => sendPage(reply, 403, 'Request expired', '<p role="alert">This form is no longer valid. <a href="/status">Start again</a>.</p>');

  app.get('/status', async (request, reply) => {
    if (!(await hasSession(request))) return showPasswordPage(reply);
    return statusPage(reply, hub, sources, refreshSeconds);
  });

  app.post('/status/session', { schema: { body: PasswordForm }, errorHandler: pageWhenRefused(expired) }, async (request, reply) => {
    const form = request.body;
    const cookie = parseCookie(request.headers.cookie ?? '')[CSRF_COOKIE];
    if (!cookie || !sameText(cookie, form.csrf)) return expired(reply);
    const attempt = await login.attempt(request.ip, form.password);
    if (attempt.refused) return tooManyAttemptsPage(reply, attempt.retryAfterSeconds);
    if (!attempt.matched) return passwordPage(reply, form.csrf, 'Wrong password.');
    const session = newSecret('sts');
    await ensureIndex();
    await sessions.insertOne({ _id: hashSecret(session), expiresAt: new Date(Date.now() + SESSION_SECONDS * 1000) });
    reply.header('set-cookie', stringifySetCookie({ name: SESSION_COOKIE, value: session, httpOnly: true, sameSite: 'lax', secure, path: '/status', maxAge: SESSION_SECONDS }));
    return reply.redirect('/status', 303);
  });

  async function hasSession(request: FastifyRequest): Promise<boolean> {
    const session = parseCookie(request.headers.cookie ?? '')[SESSION_COOKIE];
    if (session === undefined) return false;
    const record = await sessions.findOne({ _id: hashSecret(session) });
    return record !== null && record.expiresAt.getTime() > Date.now();
  }

  function showPasswordPage(reply: FastifyReply): FastifyReply {
    const csrf = newSecret('csrf');
    reply.header('set-cookie', stringifySetCookie({ name: CSRF_COOKIE, value: csrf, httpOnly: true, sameSite: 'strict', secure, path: '/status', maxAge: PASSWORD_FORM_SECONDS }));
    return passwordPage(reply, csrf);
  }
}

function passwordPage(reply: FastifyReply, csrf: string, error?: string): FastifyReply {
  return sendPage(
    reply,
    error ? 401 : 200,
    'Hub status',
    `<p>Log in with the hub password to see the status of the hub's servers.</p>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/status/session"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="password">Hub password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit" class="primary">Log in</button></form>`,
  );
}

function statusPage(reply: FastifyReply, hub: PluginHub, sources: StatusSources, refreshSeconds: number): FastifyReply {
  const now = Date.now();
  const children = hub.servers.list();
  const troubled = children.filter((child) => TROUBLED.has(child.status));
  const upstreams = hub.pages.has('upstreams');
  const alert =
    troubled.length === 0
      ? ''
      : `<section role="alert" aria-labelledby="attention"><h2 id="attention">${troubled.length === 1 ? '1 server needs' : `${troubled.length} servers need`} attention</h2><ul>${troubled
          .map((child) => `<li><a href="#server-${escapeHtml(child.name)}">${escapeHtml(child.name)}</a>: ${escapeHtml(child.status)}${child.problem ? ` (${escapeHtml(child.problem)})` : ''}</li>`)
          .join('')}</ul></section>`;
  const rows = children.map((child) => row(child, sources.recent(child.name)?.figures(now), sources.times(child.name), now)).join('\n');
  const body = `<nav aria-label="Status page"><a class="primary" href="/status">Refresh now</a><span>Refreshes every ${refreshSeconds} s. Updated <time datetime="${new Date(now).toISOString()}">${formatTime(now)}</time>.</span>${
    upstreams ? '<a href="/upstreams">Upstream logins</a>' : ''
  }</nav>
${alert}
<h2 id="servers">Servers</h2>
${
  children.length === 0
    ? '<p>No server is configured.</p>'
    : `<table aria-labelledby="servers"><thead><tr><th scope="col">Server</th><th scope="col">Status</th><th scope="col" class="num">Tools</th><th scope="col" class="num">Calls (1 h)</th><th scope="col" class="num">Errors (1 h)</th><th scope="col" class="num">p50</th><th scope="col" class="num">p99</th><th scope="col">Last start</th><th scope="col">Last up</th><th scope="col">Upstream login</th></tr></thead>
<tbody>${rows}</tbody></table>`
}
<h2>Hub</h2><p>Version ${escapeHtml(hub.version)}, ${children.length} server${children.length === 1 ? '' : 's'}. Metrics for machines are at <code>/metrics</code>.</p>`;
  return sendPage(reply, 200, 'Hub status', body, { wide: true, refreshSeconds });
}

function row(child: ServerView, figures: RecentFigures | undefined, times: ServerTimes | undefined, now: number): string {
  const cell = (label: string, content: string, className?: string) => `<td data-label="${label}"${className ? ` class="${className}"` : ''}>${content}</td>`;
  const troubled = TROUBLED.has(child.status);
  const status = `<span class="status ${troubled ? 'bad' : child.status === 'up' ? 'ok' : ''}">${escapeHtml(child.status)}</span>${child.problem ? `<br><span class="reason">${escapeHtml(child.problem)}</span>` : ''}`;
  const errors = figures?.errors ?? 0;
  const upstream = !('oauth' in child.entry) ? 'not used' : child.status === 'unauthorized' ? '<span class="bad">login needed</span>' : 'configured';
  return `<tr id="server-${escapeHtml(child.name)}"><th scope="row" data-label="Server">${escapeHtml(child.name)}</th>${cell('Status', status)}${cell('Tools', child.toolsKnown ? String(child.tools.length) : 'not yet known', 'num tools')}${cell(
    'Calls (1 h)',
    String(figures?.calls ?? 0),
    'num calls',
  )}${cell('Errors (1 h)', String(errors), `num errors${errors > 0 ? ' bad' : ''}`)}${cell('p50', milliseconds(figures?.p50Ms), 'num')}${cell('p99', milliseconds(figures?.p99Ms), 'num')}${cell(
    'Last start',
    times?.lastStart ? `${shortTime(times.lastStart.at, now)} (${times.lastStart.reason})` : 'not yet',
  )}${cell('Last up', times?.lastUp ? `${shortTime(times.lastUp.at, now)} after ${times.lastUp.seconds.toFixed(2)} s` : 'not yet')}${cell('Upstream login', upstream)}</tr>`;
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

function sameText(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}
