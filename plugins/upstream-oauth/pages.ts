import type { FastifyReply } from 'fastify';
import type { ChildStatus } from '../../core/plugin/observe.js';
import { escapeHtml, type OperatorService } from '../../core/plugin/pages.js';

export interface UpstreamRow {
  name: string;
  mode: string;
  grant: string;
  status: ChildStatus | 'unknown';
  hasTokens: boolean;
}

export function listPage(operator: OperatorService, reply: FastifyReply, rows: UpstreamRow[], notice?: string): FastifyReply {
  const form = (name: string, action: 'login' | 'logout', label: string) =>
    `<form method="post" action="${escapeHtml(operator.url(`/upstreams/${encodeURIComponent(name)}/${action}`))}">${operator.csrfField(
      reply,
    )}<button type="submit" name="action" value="${action}">${escapeHtml(label)}</button></form>`;
  const items = rows.map(
    (row) => `<li id="upstream-${escapeHtml(row.name)}"><strong>${escapeHtml(row.name)}</strong>: <span class="status">${escapeHtml(row.status)}</span>
<br>mode ${escapeHtml(row.mode)}, grant ${escapeHtml(row.grant)}, ${row.hasTokens ? 'tokens held' : 'no tokens'}
${row.grant === 'authorization_code' ? form(row.name, 'login', `Log in to ${row.name}`) : ''}${row.hasTokens ? form(row.name, 'logout', `Log out of ${row.name}`) : ''}</li>`,
  );
  return operator.sendPage(
    reply,
    200,
    'Upstream logins',
    `${notice ? `<p class="notice">${escapeHtml(notice)}</p>` : ''}${rows.length === 0 ? '<p>No server uses upstream OAuth.</p>' : `<ul>${items.join('\n')}</ul>`}`,
  );
}
