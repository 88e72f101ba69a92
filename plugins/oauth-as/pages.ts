import type { FastifyReply } from 'fastify';
import { escapeHtml, type OperatorService } from '../../core/plugin/pages.js';

export interface ConsentContext {
  action: string;
  /** The sealed pending request (see pending.ts). */
  request: string;
  clientName: string;
  clientId: string;
  resource: string;
}

/**
 * The approval page. Allowing takes the hub password every time, also in a browser logged
 * in to the operator pages: a grant is a month of tokens for whoever runs the client, so it
 * is never one click that a link sent to the operator could lead to. Denying takes nothing.
 */
export function consentPage(operator: OperatorService, reply: FastifyReply, context: ConsentContext, error?: string): FastifyReply {
  return operator.sendPage(
    reply,
    error ? 401 : 200,
    'Allow access?',
    `<p><strong>${escapeHtml(context.clientName)}</strong> (<code>${escapeHtml(context.clientId)}</code>) asks for access to <code>${escapeHtml(context.resource)}</code>.</p>
<p>To allow it, enter the hub password.</p>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(context.action)}">${operator.csrfField(reply)}<input type="hidden" name="request" value="${escapeHtml(context.request)}">
<label for="password">Hub password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button name="step" value="approve" type="submit">Allow</button><button class="deny" name="step" value="deny" type="submit" formnovalidate>Deny</button></form>`,
  );
}
