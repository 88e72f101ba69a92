import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml } from '../../core/plugin/pages.js';

/**
 * The body of `/console/access`: the API tokens (drawn by `assets/access.js` from
 * `GET /console/api/tokens`), the mint form, its choices the servers the hub has now, and
 * the OAuth clients (`GET /console/api/clients`).
 * Its own script, so the other views load none of it.
 */
export function accessView(hub: PluginHub): string {
  const script = `<script type="module" src="${escapeHtml(hub.operator.url('/console/access.js'))}"></script>`;
  if (hub.accessAdmin.current === undefined) {
    return `<section aria-labelledby="access-title"><h2 id="access-title">Access</h2><p role="note" class="alert">No plugin issues API tokens in this hub: turn plugin <code>oauth-as</code> on (<code>"plugins": { "oauth-as": {} }</code>) to mint them here or with <code>hub-admin tokens</code>.</p></section>`;
  }
  const servers = hub.servers.list().sort((a, b) => a.name.localeCompare(b.name));
  const box = (name: string, value: string, id: string, label: string) =>
    `<li><input type="checkbox" name="${name}" value="${escapeHtml(value)}" id="${escapeHtml(id)}"> <label for="${escapeHtml(id)}">${label}</label></li>`;
  const endpoints = [
    box('resources', 'hub', 'resource-hub', '<code>/hub</code> (the meta-tools over every server it is offered)'),
    ...servers.map((server) => box('resources', server.name, `resource-${server.name}`, `<code>/${escapeHtml(server.name)}/mcp</code> (server ${escapeHtml(server.name)} alone)`)),
  ].join('');
  const throughHub = servers
    .filter((server) => !server.hidden)
    .map((server) => box('servers', server.name, `through-${server.name}`, escapeHtml(server.name)))
    .join('');
  return `${script}<section aria-labelledby="tokens-title"><h2 id="tokens-title" tabindex="-1">API tokens</h2>
<p>An API token is a bearer token an MCP client sends to the hub (<code>Authorization: Bearer …</code>); it opens only the endpoints it was minted for. The same tokens as <code>hub-admin tokens list</code>; expired ones are not listed.</p>
<div id="token-list"><p>Loading…</p></div></section>
<section aria-labelledby="mint-title"><h2 id="mint-title">Mint a token</h2>
<form id="mint-form" novalidate>
<div class="field"><label for="mint-label">Label</label><input id="mint-label" name="label" maxlength="200" aria-describedby="mint-label-hint"><p class="hint" id="mint-label-hint">Who or what holds it (a laptop, a CI job); shown in the list.</p></div>
<fieldset aria-describedby="mint-opens-error"><legend>What it opens</legend>
<p><input type="checkbox" name="all" id="mint-all"> <label for="mint-all">Every endpoint (<code>/hub</code> and every <code>/&lt;name&gt;/mcp</code>, also servers added later)</label></p>
<p class="hint" id="mint-resources-hint">Or only the endpoints ticked here:</p>
<ul class="choices" aria-describedby="mint-resources-hint">${endpoints}</ul>
<p class="field-error" id="mint-opens-error" role="alert"></p></fieldset>
${
  throughHub === ''
    ? ''
    : `<fieldset id="mint-through-hub" aria-describedby="mint-servers-hint"><legend>Through <code>/hub</code>, only these servers</legend><p class="hint" id="mint-servers-hint">With <code>/hub</code> ticked: none ticked here reaches every server offered through <code>/hub</code>.</p><ul class="choices">${throughHub}</ul></fieldset>`
}
<div class="field"><label for="mint-expiry">Expires in (days)</label><input id="mint-expiry" name="expiresInDays" type="number" min="1" step="1" inputmode="numeric" aria-describedby="mint-expiry-hint mint-expiry-error"><p class="hint" id="mint-expiry-hint">Empty: it never expires (revoke it here when it is no longer needed).</p><p class="field-error" id="mint-expiry-error"></p></div>
<p class="buttons"><button type="submit" class="primary" id="mint">Mint the token</button></p>
</form>
<section id="minted" aria-labelledby="minted-title" hidden><h3 id="minted-title" tabindex="-1">Your new token</h3>
<p class="alert" role="note">This is the only time the token is shown: copy it now. The hub keeps only its id; if it is lost, revoke it and mint another.</p>
<div id="minted-body"></div><p class="buttons"><button type="button" id="minted-done">I have copied it: hide the token</button></p></section></section>
<section aria-labelledby="clients-title"><h2 id="clients-title" tabindex="-1">OAuth clients</h2>
<p>The clients that signed in with OAuth registered themselves (dynamic registration) or were added with <code>hub-admin clients add</code>. Revoking a client withdraws every token it holds now (as <code>hub-admin clients revoke</code>); it can sign in again, and an operator approves that login.</p>
<div id="client-list"><p>Loading…</p></div></section>`;
}
