import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml, pageWhenRefused } from '../../core/plugin/pages.js';
import { TOOL_CALL_OUTCOMES } from '../../core/plugin/observe.js';
import { actionsFor, SERVER_ACTIONS, statusData, type CallSummary, type ServerAction, type ServerStatus, type StatusData, type StatusSources } from './status-data.js';

// The hub's CSRF tokens are under 100 characters, never near this bound.
const ActionForm = Type.Object({ _csrf: Type.String({ maxLength: 512 }) });
const ActionParams = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  action: Type.Union(SERVER_ACTIONS.map((action) => Type.Literal(action))),
});
/** What the page says after an action (the redirect after the form's post names it). */
const StatusQuery = Type.Object({
  done: Type.Optional(Type.Union(SERVER_ACTIONS.map((action) => Type.Literal(action)))),
  server: Type.Optional(Type.String({ maxLength: 200 })),
});

const DONE: Record<ServerAction, string> = { wake: 'woken', sleep: 'put to sleep', restart: 'restarted' };
const BUTTON: Record<ServerAction, string> = { wake: 'Wake', sleep: 'Sleep', restart: 'Restart' };

/**
 * `/status` for the operator and `/status.json` for the operator's scripts, behind the
 * hub's operator login (`hub.operator`: one session for every page of the hub), both
 * from `statusData`: every server with its status and why, its calls and errors in the
 * last hour with p50 and p99, restarts and crashes, its last start and last failure, and
 * per tool since the start; the last config reload; a link to every other operator page
 * (`hub.pages`) and what waits for the operator there (`OperatorPage.attention`). Wake,
 * sleep and restart are forms (CSRF-checked by the operator service) that come back to
 * the page. The page reloads itself and works without scripts, on a phone too.
 */
export async function registerStatusPage(app: FastifyInstance, hub: PluginHub, sources: StatusSources, refreshSeconds: number): Promise<void> {
  const { operator } = hub;
  await operator.pages(app, (context) => {
    context.setValidatorCompiler(TypeBoxValidatorCompiler);
    const pages = context.withTypeProvider<TypeBoxTypeProvider>();
    const home = (reply: FastifyReply) => operator.sendPage(reply, 404, 'Not found', `<p>No such server or action. <a href="${escapeHtml(operator.url('/status'))}">Back to the status page</a>.</p>`);

    pages.get('/status', { onRequest: operator.requireSession, schema: { querystring: StatusQuery }, errorHandler: pageWhenRefused(home) }, async (request, reply) => {
      const data = await statusData(hub, sources, Date.now());
      const { done, server } = request.query;
      const notice = done !== undefined && server !== undefined && data.servers.some((entry) => entry.name === server) ? `Server ${server} ${DONE[done]}.` : undefined;
      return operator.sendPage(reply, 200, 'Hub status', statusBody(hub, reply, data, refreshSeconds, notice), { wide: true, refreshSeconds });
    });

    pages.get('/status.json', { onRequest: operator.requireSession }, async (_request, reply) => reply.header('cache-control', 'no-store').send(await statusData(hub, sources, Date.now())));

    pages.post('/status/servers/:name/:action', { onRequest: operator.requireSession, schema: { params: ActionParams, body: ActionForm }, errorHandler: pageWhenRefused(home) }, async (request, reply) => {
      const { name, action } = request.params;
      const child = hub.servers.get(name);
      if (!child || !actionsFor(child).includes(action)) return home(reply);
      request.log.info({ server: name, action }, 'status page: operator action');
      try {
        if (action === 'wake') await child.ensureUp();
        else if (action === 'sleep') await child.sleep();
        else await child.restart();
      } catch (error) {
        return operator.sendPage(
          reply,
          502,
          `Could not ${action} ${name}`,
          `<p role="alert">${escapeHtml((error as Error).message)}</p><p><a href="${escapeHtml(operator.url('/status'))}">Back to the status page</a></p>`,
        );
      }
      return reply.redirect(`${operator.url('/status')}?done=${action}&server=${encodeURIComponent(name)}`, 303);
    });
  });
}

function statusBody(hub: PluginHub, reply: FastifyReply, data: StatusData, refreshSeconds: number, notice: string | undefined): string {
  const { operator } = hub;
  const now = Date.parse(data.generatedAt);
  const troubled = data.servers.filter((server) => server.troubled);
  const alert =
    troubled.length === 0
      ? ''
      : `<section role="alert" aria-labelledby="attention"><h2 id="attention">${troubled.length === 1 ? '1 server needs' : `${troubled.length} servers need`} attention</h2><ul>${troubled
          .map((server) => `<li><a href="#server-${escapeHtml(server.name)}">${escapeHtml(server.name)}</a>: ${escapeHtml(server.status)}${server.problem ? ` (${escapeHtml(server.problem)})` : ''}</li>`)
          .join('')}</ul></section>`;
  const pageLinks = hub.pages
    .values()
    .map((page) => `<a href="${escapeHtml(operator.url(page.path))}">${escapeHtml(page.title)}</a>`)
    .join('');
  const searches = hub.pages
    .values()
    .flatMap(({ path, search }) =>
      search === undefined
        ? []
        : [
            `<form role="search" method="get" action="${escapeHtml(operator.url(path))}"><label>${escapeHtml(search.label)} <input type="search" name="${escapeHtml(search.field)}" required maxlength="${search.maxLength}"></label> <button type="submit">Search</button></form>`,
          ],
    )
    .join('');
  const waiting =
    data.waiting.length === 0
      ? ''
      : `<section role="alert" aria-labelledby="waiting"><h2 id="waiting">Waiting for an operator</h2><ul>${data.waiting
          .map(({ title, path, note }) => `<li><a href="${escapeHtml(operator.url(path))}">${escapeHtml(title)}</a>: ${escapeHtml(note)}</li>`)
          .join('')}</ul></section>`;
  const servers =
    data.servers.length === 0
      ? '<p>No server is configured.</p>'
      : `<table aria-labelledby="servers"><thead><tr><th scope="col">Server</th><th scope="col">Status</th><th scope="col" class="num">Tools</th><th scope="col" class="num">Calls (1 h)</th><th scope="col" class="num">Errors (1 h)</th><th scope="col" class="num">p50</th><th scope="col" class="num">p99</th><th scope="col" class="num">Restarts</th><th scope="col">Last start</th><th scope="col">Last failure</th><th scope="col">Actions</th></tr></thead>
<tbody>${data.servers.map((server) => serverRow(hub, reply, server, now)).join('\n')}</tbody></table>`;
  const toolRows = [...data.servers.flatMap((server) => server.tools.map((tool) => toolRow(server.name, tool))), ...data.hub.tools.map((tool) => toolRow('hub', tool))];
  const tools =
    toolRows.length === 0
      ? '<p>No tool is known yet.</p>'
      : `<table aria-labelledby="tools"><thead><tr><th scope="col">Server</th><th scope="col">Tool</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Errors</th><th scope="col">Outcomes</th><th scope="col" class="num">p50</th><th scope="col" class="num">p99</th></tr></thead>
<tbody>${toolRows.join('\n')}</tbody></table>`;
  return `<nav aria-label="Status page"><a class="primary" href="${escapeHtml(operator.url('/status'))}">Refresh now</a><span>Refreshes every ${refreshSeconds} s. Updated ${time(now, now)}.</span>${pageLinks}<a href="${escapeHtml(operator.url('/status.json'))}">As JSON</a></nav>
${searches}${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}${alert}${waiting}
<h2 id="servers">Servers</h2>
${servers}
<h2 id="tools">Tools since the start</h2>
${tools}
<h2 id="hub">Hub</h2>
<p>Version ${escapeHtml(data.hub.version)}, started ${time(Date.parse(data.hub.startedAt), now)}, ${data.servers.length} server${data.servers.length === 1 ? '' : 's'}. Metrics for machines are at <code>${escapeHtml(operator.url('/metrics'))}</code>.</p>
<p id="last-reload">${reloadText(data, now)}</p>`;
}

function serverRow(hub: PluginHub, reply: FastifyReply, server: ServerStatus, now: number): string {
  const cell = (label: string, content: string, className?: string) => `<td data-label="${label}"${className ? ` class="${className}"` : ''}>${content}</td>`;
  const statusClass = server.troubled ? 'bad' : server.status === 'up' ? 'ok' : '';
  const login = server.upstreamLogin === 'login needed' ? '<br><span class="bad">upstream login needed</span>' : '';
  const status = `<span class="status ${statusClass}">${escapeHtml(server.status)}</span>${server.problem ? `<br><span class="reason">${escapeHtml(server.problem)}</span>` : ''}${login}`;
  const errors = server.recent.failed;
  const start = server.lastStart ? `${time(Date.parse(server.lastStart.at), now)} (${escapeHtml(server.lastStart.reason)})${server.lastUp ? `, up after ${server.lastUp.seconds.toFixed(2)} s` : ''}` : 'not yet';
  const failure = server.lastFailure ? `${time(Date.parse(server.lastFailure.at), now)} (${server.lastFailure.kind === 'crash' ? 'crashed' : 'start failed'}): <span class="reason">${escapeHtml(server.lastFailure.reason)}</span>` : 'none';
  const buttons = server.actions
    .map(
      (action) =>
        `<form method="post" action="${escapeHtml(hub.operator.url(`/status/servers/${encodeURIComponent(server.name)}/${action}`))}">${hub.operator.csrfField(reply)}<button type="submit" name="action" value="${action}" aria-label="${BUTTON[action]} ${escapeHtml(server.name)}">${BUTTON[action]}</button></form>`,
    )
    .join('');
  return `<tr id="server-${escapeHtml(server.name)}"><th scope="row" data-label="Server">${escapeHtml(server.name)}</th>${cell('Status', status)}${cell('Tools', toolsText(server), 'num tools')}${cell(
    'Calls (1 h)',
    String(server.recent.calls),
    'num calls',
  )}${cell('Errors (1 h)', String(errors), `num errors${errors > 0 ? ' bad' : ''}`)}${cell('p50', milliseconds(server.recent.p50Ms), 'num')}${cell('p99', milliseconds(server.recent.p99Ms), 'num')}${cell(
    'Restarts',
    `${server.restarts}${server.crashes > 0 ? ` (${server.crashes} crash${server.crashes === 1 ? '' : 'es'})` : ''}`,
    'num restarts',
  )}${cell('Last start', start)}${cell('Last failure', failure, 'failure')}${cell('Actions', buttons || '–', 'actions')}</tr>`;
}

/** The tools offered, and how many a tool gate withholds (awaiting an operator's approval). */
function toolsText(server: ServerStatus): string {
  if (server.toolCount === null) return 'not yet known';
  return `${server.toolCount}${server.withheldTools > 0 ? `<br><span class="bad">${server.withheldTools} withheld</span>` : ''}`;
}

function toolRow(server: string, tool: { name: string } & CallSummary): string {
  const cell = (label: string, content: string, className?: string) => `<td data-label="${label}"${className ? ` class="${className}"` : ''}>${content}</td>`;
  const outcomes = TOOL_CALL_OUTCOMES.filter((outcome) => tool.outcomes[outcome] > 0)
    .map((outcome) => `${outcome} ${tool.outcomes[outcome]}`)
    .join(', ');
  return `<tr id="tool-${escapeHtml(server)}-${escapeHtml(tool.name)}"><th scope="row" data-label="Server">${escapeHtml(server)}</th>${cell('Tool', escapeHtml(tool.name))}${cell('Calls', String(tool.calls), 'num calls')}${cell(
    'Errors',
    String(tool.failed),
    `num errors${tool.failed > 0 ? ' bad' : ''}`,
  )}${cell('Outcomes', outcomes || '–', 'outcomes')}${cell('p50', milliseconds(tool.p50Ms), 'num')}${cell('p99', milliseconds(tool.p99Ms), 'num')}</tr>`;
}

function reloadText(data: StatusData, now: number): string {
  const reload = data.hub.lastReload;
  if (!reload) return 'No config reload since the start.';
  const at = time(Date.parse(reload.at), now);
  if (reload.outcome === 'refused') return `<span class="bad">The last config reload (${escapeHtml(reload.trigger)}, ${at}) was refused</span>: ${escapeHtml(reload.error ?? '')} The running config stays in force.`;
  const changes = (
    [
      ['added', reload.added],
      ['removed', reload.removed],
      ['restarted', reload.restarted],
      ['retuned', reload.retuned],
    ] as const
  )
    .filter(([, names]) => names.length > 0)
    .map(([what, names]) => `${what} ${names.map(escapeHtml).join(', ')}`)
    .join('; ');
  return `The last config reload (${escapeHtml(reload.trigger)}, ${at}) was applied${changes ? `: ${changes}` : ', with no server changed'}.`;
}

function milliseconds(value: number | null): string {
  if (value === null) return '–';
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

/** The time of day for today's events, the date too for older ones; the full time is in `datetime`. */
function time(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  const shown = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? `${iso.slice(11, 19)} UTC` : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  return `<time datetime="${iso}">${shown}</time>`;
}
