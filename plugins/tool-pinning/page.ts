import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { INSTRUCTIONS } from './instructions.js';
import type { ToolPins } from './pins.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml, pageWhenRefused } from '../../core/plugin/pages.js';

export const APPROVALS_PATH = '/tool-approvals';

/** Definitions one "approve all" form may carry (65 bytes each in the form, within the operator forms' 64 KiB). */
const MAX_APPROVE_ALL = 500;

const ApproveAllForm = Type.Object({
  _csrf: Type.String({ maxLength: 512 }),
  server: Type.String({ minLength: 1, maxLength: 64 }),
  /** The digests of the definitions the page showed, space-separated: only those are approved. */
  digests: Type.String({ pattern: `^[0-9a-f]{64}( [0-9a-f]{64}){0,${MAX_APPROVE_ALL - 1}}$` }),
});

const ApproveForm = Type.Object({
  _csrf: Type.String({ maxLength: 512 }),
  server: Type.String({ minLength: 1, maxLength: 64 }),
  /** Absent for the server's instructions (`item`). */
  tool: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  item: Type.Optional(Type.Literal(INSTRUCTIONS)),
  digest: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

/**
 * `/tool-approvals`, behind the operator login (`hub.operator`): every tool definition
 * that waits for approval, with the diff from the one approved before and an Approve
 * button that approves exactly the definition shown (a form with the hub's CSRF token);
 * then the servers that pin their tools. The status page links here and says when
 * something waits (`OperatorPage.attention`).
 */
export async function registerApprovalPage(app: FastifyInstance, hub: PluginHub, pins: ToolPins): Promise<void> {
  const { operator } = hub;
  await operator.pages(app, (context) => {
    const pages = context.withTypeProvider<TypeBoxTypeProvider>();
    pages.get(APPROVALS_PATH, { onRequest: operator.requireSession }, async (request, reply) => {
      try {
        return await approvalsPage(reply, hub, pins);
      } catch (error) {
        return unavailable(request, reply, hub, error);
      }
    });
    const refused = pageWhenRefused((reply) => operator.sendPage(reply, 400, 'Not approved', `<p>The form was not complete. ${back(hub)}</p>`));
    pages.post(`${APPROVALS_PATH}/approve`, { onRequest: operator.requireSession, schema: { body: ApproveForm }, errorHandler: refused }, async (request, reply) => {
      const { server, tool, item, digest } = request.body;
      const view = hub.servers.get(server);
      if (!view || !pins.pins(view)) return operator.sendPage(reply, 404, 'Not approved', `<p>No server named ${escapeHtml(server)} pins its tools. ${back(hub)}</p>`);
      if ((item === undefined) === (tool === undefined)) return operator.sendPage(reply, 400, 'Not approved', `<p>The form was not complete. ${back(hub)}</p>`);
      try {
        const approved = await pins.approve(server, tool === undefined ? INSTRUCTIONS : { tool }, 'status page', digest);
        const what = tool === undefined ? `instructions of server ${server}` : `tool ${tool} of server ${server}`;
        if (approved.length === 0) {
          return operator.sendPage(reply, 409, 'Not approved', `<p>This version of the ${escapeHtml(what)} no longer waits for approval: it was approved meanwhile, or it changed again since the page was shown. ${back(hub)}</p>`);
        }
        return await approvalsPage(reply, hub, pins, `Approved ${what}.`);
      } catch (error) {
        return unavailable(request, reply, hub, error);
      }
    });
    // A server's every waiting definition in one click (a new 40-tool server is not 40 forms),
    // as `hub-admin tools approve <server>` does; exactly the ones the page showed.
    pages.post(`${APPROVALS_PATH}/approve-all`, { onRequest: operator.requireSession, schema: { body: ApproveAllForm }, errorHandler: refused }, async (request, reply) => {
      const { server, digests } = request.body;
      const view = hub.servers.get(server);
      if (!view || !pins.pins(view)) return operator.sendPage(reply, 404, 'Not approved', `<p>No server named ${escapeHtml(server)} pins its tools. ${back(hub)}</p>`);
      try {
        const approved = await pins.approve(server, 'all', 'status page', new Set(digests.split(' ')));
        if (approved.length === 0) {
          return operator.sendPage(reply, 409, 'Not approved', `<p>None of the definitions of server ${escapeHtml(server)} the page showed waits for approval any more: they were approved meanwhile, or changed again since. ${back(hub)}</p>`);
        }
        const count = approved.length;
        return await approvalsPage(reply, hub, pins, `Approved ${count} definition${count === 1 ? '' : 's'} of server ${server}.`);
      } catch (error) {
        return unavailable(request, reply, hub, error);
      }
    });
  });
}

/** One "approve all" form per server with more than one definition waiting that can be approved. */
function approveAllForms(reply: FastifyReply, hub: PluginHub, changes: readonly { server: string; digest: string; tooLarge?: string }[]): string[] {
  const { operator } = hub;
  const byServer = new Map<string, string[]>();
  for (const change of changes) {
    if (change.tooLarge !== undefined) continue;
    byServer.set(change.server, [...(byServer.get(change.server) ?? []), change.digest]);
  }
  return [...byServer].flatMap(([server, digests]) => {
    if (digests.length < 2) return [];
    if (digests.length > MAX_APPROVE_ALL) return [`<p>${digests.length} definitions of ${escapeHtml(server)} wait: approve them all with <code>hub-admin tools approve ${escapeHtml(server)}</code>.</p>`];
    return [
      `<form method="post" action="${escapeHtml(operator.url(`${APPROVALS_PATH}/approve-all`))}">${operator.csrfField(reply)}<input type="hidden" name="server" value="${escapeHtml(server)}"><input type="hidden" name="digests" value="${digests.join(' ')}"><button type="submit" class="primary">Approve all ${digests.length} waiting of ${escapeHtml(server)}</button></form>`,
    ];
  });
}

async function approvalsPage(reply: FastifyReply, hub: PluginHub, pins: ToolPins, notice?: string): Promise<FastifyReply> {
  const { operator } = hub;
  const changes = await pins.pending();
  const pinning = hub.servers.list().filter((server) => pins.pins(server));
  const approved = await pins.approved();
  const items = changes.map((change, index) => {
    const instructions = change.item === INSTRUCTIONS;
    const name = instructions ? 'Instructions' : change.tool;
    const target = instructions ? `<input type="hidden" name="item" value="${INSTRUCTIONS}">` : `<input type="hidden" name="tool" value="${escapeHtml(change.tool)}">`;
    return `<section aria-labelledby="change-${index}"><h3 id="change-${index}">${escapeHtml(name)} of ${escapeHtml(change.server)}</h3>
<p>${change.approved === undefined ? 'New: never approved.' : 'Changed since it was approved.'}${instructions ? (change.approved === undefined ? ' Callers get no instructions until then.' : ' Callers get the approved instructions until then.') : ''} Seen <time datetime="${change.seenAt.toISOString()}">${escapeHtml(change.seenAt.toISOString().slice(0, 19).replace('T', ' '))} UTC</time>.</p>
${change.tooLarge !== undefined ? `<p role="alert" class="bad">Cannot be approved: ${escapeHtml(change.tooLarge)}.</p>` : `<pre class="diff">${diffHtml(change.diff)}</pre>
<form method="post" action="${escapeHtml(operator.url(`${APPROVALS_PATH}/approve`))}">${operator.csrfField(reply)}<input type="hidden" name="server" value="${escapeHtml(change.server)}">${target}<input type="hidden" name="digest" value="${escapeHtml(change.digest)}"><button type="submit" class="primary">Approve ${escapeHtml(instructions ? 'instructions' : change.tool)} of ${escapeHtml(change.server)}</button></form>`}</section>`;
  });
  const servers = pinning.map((server) => {
    const count = approved.filter((pin) => pin.server === server.name && pin.item === undefined).length;
    return `<li>${escapeHtml(server.name)}: ${count} tool${count === 1 ? '' : 's'} approved${server.withheldTools.length > 0 ? `, <span class="bad">${server.withheldTools.length} withheld here</span>` : ''}</li>`;
  });
  const body = `${notice ? `<p role="status">${escapeHtml(notice)}</p>` : ''}
<p>A server that pins its tools offers a tool only in a definition an operator approved: a tool any part of whose definition changed (name, title, description, schemas, annotations, icons, <code>_meta</code>, <code>execution</code>), and a new one, is withheld until approved here or with <code>hub-admin tools approve &lt;server&gt; [&lt;tool&gt;]</code>. Its instructions are pinned too: changed ones are served as last approved (new ones not at all) until approved here or with <code>hub-admin tools approve &lt;server&gt; --instructions</code>.</p>
<h2 id="waiting">Waiting for approval</h2>
${items.length === 0 ? '<p>Nothing waits for approval.</p>' : [...approveAllForms(reply, hub, changes), ...items].join('\n')}
<h2 id="pinning">Servers that pin their tools</h2>
${servers.length === 0 ? '<p>No server pins its tools.</p>' : `<ul aria-labelledby="pinning">${servers.join('')}</ul>`}`;
  return operator.sendPage(reply, 200, 'Tool approvals', body, { wide: true });
}

/** The diff's removed and added lines marked as such (`del`, `ins`), so that they read so without colour. */
function diffHtml(diff: string): string {
  return diff
    .split('\n')
    .map((line) => {
      const text = escapeHtml(line);
      if (line.startsWith('-') && !line.startsWith('---')) return `<del>${text}</del>`;
      if (line.startsWith('+') && !line.startsWith('+++')) return `<ins>${text}</ins>`;
      return text;
    })
    .join('\n');
}

/** The store did not answer (or an approval kept meeting others): said on a page, and logged. */
function unavailable(request: FastifyRequest, reply: FastifyReply, hub: PluginHub, error: unknown): FastifyReply {
  request.log.warn({ err: (error as Error).message }, 'the tool approvals page failed');
  return hub.operator.sendPage(reply, 503, 'Tool approvals unavailable', `<p>${escapeHtml((error as Error).message)}. Try again in a moment. ${back(hub)}</p>`);
}

function back(hub: PluginHub): string {
  return `<a href="${escapeHtml(hub.operator.url(APPROVALS_PATH))}">Back to the tool approvals</a>`;
}
