import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml } from '../../core/plugin/pages.js';
import { accessView } from './access-view.js';

export const CONSOLE_PATH = '/console';

// The page's script and stylesheet are plain files beside the sources (they run in the
// browser, which the hub's TypeScript build does not target), read once and served from the
// hub itself: nothing comes from a CDN, and the CSP allows only these.
const assetsFolder = new URL('../../../plugins/console/assets/', import.meta.url);
const ASSETS = {
  'console.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('console.js', assetsFolder)) },
  'console.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('console.css', assetsFolder)) },
  'access.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('access.js', assetsFolder)) },
  'calls.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('calls.js', assetsFolder)) },
} as const;

/** Scripts and styles only from the hub's own files, requests only to the hub, never framed; no inline script or style. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function secured(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store');
}

/** The console's views, each its own URL (so a login started at one comes back to it). */
const VIEWS = {
  servers: { path: CONSOLE_PATH, title: 'Servers' },
  overview: { path: `${CONSOLE_PATH}/overview`, title: 'Overview' },
  approvals: { path: `${CONSOLE_PATH}/approvals`, title: 'Tool approvals' },
  access: { path: `${CONSOLE_PATH}/access`, title: 'Access' },
  calls: { path: `${CONSOLE_PATH}/calls`, title: 'Calls' },
} as const;
type View = keyof typeof VIEWS;
/** The operator page of plugin `tool-pinning` whose data the approvals view shows (`/tool-approvals.json`); it redirects here. */
const APPROVALS_PAGE = '/tool-approvals';

/**
 * `/console` (servers), `/console/overview` (the status: what `/status` showed) and
 * `/console/approvals` (what `/tool-approvals` showed, when plugin `tool-pinning` is on):
 * the page frame, behind the operator login (the login form comes back to the view), with
 * the CSRF token its script sends back in `X-CSRF-Token`, the views and the other operator
 * pages linked, and on the overview the searches other pages offer. Everything shown
 * inside is drawn by `assets/console.js` from the API, as text nodes: nothing a server says
 * is ever parsed as markup.
 */
export function registerShell(context: FastifyInstance, hub: PluginHub): void {
  const { operator } = hub;
  for (const [name, asset] of Object.entries(ASSETS)) {
    context.get(`${CONSOLE_PATH}/${name}`, async (_request, reply) => secured(reply).type(asset.type).send(asset.body));
  }
  for (const view of Object.keys(VIEWS) as View[]) {
    context.get(VIEWS[view].path, { onRequest: operator.requireSession }, async (_request, reply) => {
      const approvals = hub.pages.values().some((page) => page.path === APPROVALS_PAGE);
      if (view === 'approvals' && !approvals) return operator.sendPage(reply, 404, 'No tool approvals', '<p>No server can pin its tools here: plugin <code>tool-pinning</code> is off.</p>');
      return secured(reply)
        .code(200)
        .type('text/html; charset=utf-8')
        .send(shell(hub, reply, view, approvals));
    });
  }
}

function shell(hub: PluginHub, reply: FastifyReply, view: View, approvals: boolean): string {
  const { operator } = hub;
  const views = (Object.keys(VIEWS) as View[])
    .filter((name) => name !== 'approvals' || approvals)
    .map((name) => `<li><a href="${escapeHtml(operator.url(VIEWS[name].path))}"${name === view ? ' aria-current="page"' : ''}>${VIEWS[name].title}</a></li>`);
  const links = hub.pages
    .values()
    .filter((page) => page.path !== CONSOLE_PATH && page.path !== APPROVALS_PAGE)
    .map((page) => `<li><a href="${escapeHtml(operator.url(page.path))}">${escapeHtml(page.title)}</a></li>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="csrf-token" content="${escapeHtml(operator.csrfToken(reply))}"><meta name="console-base" content="${escapeHtml(operator.url(''))}"><meta name="console-view" content="${view}">
<title>${VIEWS[view].title} – Hub console</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${escapeHtml(
    operator.url(`${CONSOLE_PATH}/console.css`),
  )}"><script type="module" src="${escapeHtml(operator.url(`${CONSOLE_PATH}/console.js`))}"></script>${
    view === 'calls' ? `<script type="module" src="${escapeHtml(operator.url(`${CONSOLE_PATH}/calls.js`))}"></script>` : ''
  }</head>
<body><header><h1>Hub console</h1><nav aria-label="Operator pages"><ul>${[...views, ...links].join('')}</ul></nav>
<form class="logout" method="post" action="${escapeHtml(operator.url('/logout'))}">${operator.csrfField(reply)}<input type="hidden" name="return_to" value="${escapeHtml(
    operator.url(VIEWS[view].path),
  )}"><button type="submit">Log out</button></form></header>
<main id="main"><noscript><p role="alert">The console needs JavaScript. The same figures are at <a href="${escapeHtml(operator.url('/status.json'))}">/status.json</a>.</p></noscript>
<div id="notice" role="status" aria-live="polite"></div>
${VIEW_BODIES[view](hub)}
</main></body></html>`;
}

const VIEW_BODIES: Record<View, (hub: PluginHub) => string> = {
  servers:
    () => `<section aria-labelledby="servers"><h2 id="servers">Servers</h2><div id="read-only"></div><div id="server-list"><p>Loading…</p></div><p class="buttons"><button type="button" id="add-server" class="primary">Add a server</button><button type="button" id="refresh">Refresh</button></p></section>
<section id="tools" aria-labelledby="tools-title" hidden><h2 id="tools-title" tabindex="-1">Tools</h2><div id="tool-list"></div></section>
<section id="editor" aria-labelledby="editor-title" hidden><h2 id="editor-title">Add a server</h2><form id="entry-form" novalidate></form><div id="test-result" aria-live="polite"></div><div id="conflict"></div></section>`,
  // The searches other pages offer (tool-search's) are plain GET forms to those pages.
  overview: (hub) => {
    const searches = hub.pages
      .values()
      .flatMap(({ path, search }) =>
        search === undefined
          ? []
          : [
              `<form role="search" method="get" action="${escapeHtml(hub.operator.url(path))}"><label>${escapeHtml(search.label)} <input type="search" name="${escapeHtml(
                search.field,
              )}" required maxlength="${search.maxLength}"></label> <button type="submit">Search</button></form>`,
            ],
      )
      .join('');
    return `${searches}<p class="buttons"><button type="button" id="refresh-overview" class="primary">Refresh now</button></p><div id="overview"><p>Loading…</p></div><div id="hub-overview"></div>`;
  },
  approvals: () => `<section aria-labelledby="approvals-title"><h2 id="approvals-title" tabindex="-1">Tool approvals</h2>
<p>A server that pins its tools offers a tool only in a definition an operator approved: a tool any part of whose definition changed (name, title, description, schemas, annotations, icons, <code>_meta</code>, <code>execution</code>), and a new one, is withheld until approved here or with <code>hub-admin tools approve &lt;server&gt; [&lt;tool&gt;]</code>. Its instructions are pinned too: changed ones are served as last approved (new ones not at all) until approved here or with <code>hub-admin tools approve &lt;server&gt; --instructions</code>.</p>
<div id="approvals"><p>Loading…</p></div></section>`,
  access: accessView,
  calls: () => `<section aria-labelledby="calls-title"><h2 id="calls-title" tabindex="-1">Calls</h2>
<p>The last tool calls through the hub, newest first; new ones appear as they end.</p>
<form id="calls-filter" class="filters"><label>Server <input type="text" name="server" maxlength="200" autocomplete="off"></label> <label>Caller <input type="text" name="caller" maxlength="300" autocomplete="off"></label> <label>Outcome <select name="outcome"><option value="">any</option><option value="failed">failed (not ok)</option></select></label> <button type="submit">Filter</button></form>
<p id="calls-live" role="status"></p><div id="calls"><p>Loading…</p></div><section id="call-detail" aria-labelledby="call-detail-title" hidden><h3 id="call-detail-title" tabindex="-1">Call</h3><div id="call-detail-body"></div></section></section>`,
};
