import type { FastifyReply } from 'fastify';
import { escapeHtml, sendPage } from '../../core/plugin/pages.js';

export interface FormContext {
  action: string;
  requestId: string;
  csrf: string;
  clientName: string;
  clientId: string;
  resource: string;
}

function hidden(context: FormContext): string {
  return `<input type="hidden" name="request_id" value="${escapeHtml(context.requestId)}"><input type="hidden" name="csrf" value="${escapeHtml(context.csrf)}">`;
}

function what(context: FormContext): string {
  return `<p><strong>${escapeHtml(context.clientName)}</strong> (<code>${escapeHtml(context.clientId)}</code>) asks for access to <code>${escapeHtml(context.resource)}</code>.</p>`;
}

export function loginPage(reply: FastifyReply, context: FormContext, error?: string): FastifyReply {
  return sendPage(
    reply,
    error ? 401 : 200,
    'Log in to the hub',
    `${what(context)}${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(context.action)}">${hidden(context)}
<label for="password">Hub password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button name="step" value="login" type="submit">Log in</button></form>`,
  );
}

export function consentPage(reply: FastifyReply, context: FormContext): FastifyReply {
  return sendPage(
    reply,
    200,
    'Allow access?',
    `${what(context)}<form method="post" action="${escapeHtml(context.action)}">${hidden(context)}
<button name="step" value="approve" type="submit">Allow</button><button class="deny" name="step" value="deny" type="submit">Deny</button></form>`,
  );
}
