import type { FastifyReply } from 'fastify';
import type { ChildStatus } from '../../core/plugin/observe.js';
import { escapeHtml, sendPage } from '../../core/plugin/pages.js';

export interface UpstreamRow {
  name: string;
  mode: string;
  grant: string;
  status: ChildStatus | 'unknown';
  hasTokens: boolean;
}

export function passwordPage(reply: FastifyReply, csrf: string, error?: string): FastifyReply {
  return sendPage(
    reply,
    error ? 401 : 200,
    'Upstream logins',
    `<p>Log in with the hub password to manage the hub's logins at remote servers.</p>${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/upstreams/session"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="password">Hub password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Log in</button></form>`,
  );
}

export function listPage(reply: FastifyReply, rows: UpstreamRow[], csrf: string, notice?: string): FastifyReply {
  const form = (name: string, action: 'login' | 'logout', label: string) =>
    `<form method="post" action="/upstreams/${encodeURIComponent(name)}/${action}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit" name="action" value="${action}">${escapeHtml(label)}</button></form>`;
  const items = rows.map(
    (row) => `<li id="upstream-${escapeHtml(row.name)}"><strong>${escapeHtml(row.name)}</strong>: <span class="status">${escapeHtml(row.status)}</span>
<br>mode ${escapeHtml(row.mode)}, grant ${escapeHtml(row.grant)}, ${row.hasTokens ? 'tokens held' : 'no tokens'}
${row.grant === 'authorization_code' ? form(row.name, 'login', `Log in to ${row.name}`) : ''}${row.hasTokens ? form(row.name, 'logout', `Log out of ${row.name}`) : ''}</li>`,
  );
  return sendPage(
    reply,
    200,
    'Upstream logins',
    `${notice ? `<p class="notice">${escapeHtml(notice)}</p>` : ''}${rows.length === 0 ? '<p>No server uses upstream OAuth.</p>' : `<ul>${items.join('\n')}</ul>`}`,
  );
}
