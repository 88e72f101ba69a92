import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml } from '../../core/plugin/pages.js';

export const CONSOLE_PATH = '/console';

// The page's script and stylesheet are plain files beside the sources (they run in the
// browser, which the hub's TypeScript build does not target), read once and served from the
// hub itself: nothing comes from a CDN, and the CSP allows only these.
const assetsFolder = new URL('../../../plugins/console/assets/', import.meta.url);
const ASSETS = {
  'console.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('console.js', assetsFolder)) },
  'console.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('console.css', assetsFolder)) },
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

/**
 * `/console`: the page frame, behind the operator login (the login form comes back here),
 * with the CSRF token its script sends back in `X-CSRF-Token`, and the links to the other
 * operator pages. Everything shown inside is drawn by `assets/console.js` from the API, as
 * text nodes: nothing a server says is ever parsed as markup.
 */
export function registerShell(context: FastifyInstance, hub: PluginHub): void {
  const { operator } = hub;
  for (const [name, asset] of Object.entries(ASSETS)) {
    context.get(`${CONSOLE_PATH}/${name}`, async (_request, reply) => secured(reply).type(asset.type).send(asset.body));
  }
  context.get(CONSOLE_PATH, { onRequest: operator.requireSession }, async (_request, reply) => {
    const links = hub.pages
      .values()
      .filter((page) => page.path !== CONSOLE_PATH)
      .map((page) => `<li><a href="${escapeHtml(operator.url(page.path))}">${escapeHtml(page.title)}</a></li>`)
      .join('');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="csrf-token" content="${escapeHtml(operator.csrfToken(reply))}"><meta name="console-base" content="${escapeHtml(operator.url(''))}">
<title>Hub console</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${escapeHtml(operator.url(`${CONSOLE_PATH}/console.css`))}"><script type="module" src="${escapeHtml(operator.url(`${CONSOLE_PATH}/console.js`))}"></script></head>
<body><header><h1>Hub console</h1><nav aria-label="Operator pages"><ul><li><a href="#servers" aria-current="page">Servers</a></li>${links}</ul></nav>
<form class="logout" method="post" action="${escapeHtml(operator.url('/logout'))}">${operator.csrfField(reply)}<input type="hidden" name="return_to" value="${escapeHtml(operator.url(CONSOLE_PATH))}"><button type="submit">Log out</button></form></header>
<main id="main"><noscript><p role="alert">The console needs JavaScript. The status page works without it.</p></noscript>
<div id="notice" role="status" aria-live="polite"></div>
<section aria-labelledby="servers"><h2 id="servers">Servers</h2><div id="read-only"></div><div id="server-list"><p>Loading…</p></div><p class="buttons"><button type="button" id="add-server" class="primary">Add a server</button><button type="button" id="refresh">Refresh</button></p></section>
<section id="tools" aria-labelledby="tools-title" hidden><h2 id="tools-title" tabindex="-1">Tools</h2><div id="tool-list"></div></section>
<section id="editor" aria-labelledby="editor-title" hidden><h2 id="editor-title">Add a server</h2><form id="entry-form" novalidate></form><div id="test-result" aria-live="polite"></div><div id="conflict"></div></section>
</main></body></html>`;
    return secured(reply).code(200).type('text/html; charset=utf-8').send(html);
  });
}
