// The console's access view (/console/access): the API tokens, mint and revoke, over
// /console/api/tokens. A module of its own, loaded by this view only. Everything the hub
// sent is put in the page as text (textContent), never as markup. The token minted is kept
// only in the page that minted it, until "hide" (or leaving the page).

const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
const base = document.querySelector('meta[name="console-base"]')?.getAttribute('content') ?? '';
const api = `${base}/console/api`;
/** How often the list is read again (the last use of each token moves). */
const REFRESH_MS = 10_000;

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  const response = await fetch(`${api}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const data = await response.json().catch(() => ({ error: { code: 'HUB_ERR_INTERNAL', message: `The hub answered ${response.status} without JSON.` } }));
  return { ok: response.ok, status: response.status, data };
}

function notice(text, kind = 'ok') {
  document.getElementById('notice').replaceChildren(text ? el('p', { class: kind === 'ok' ? 'notice' : 'alert', text }) : '');
}

/** `2026-12-02 07:40 UTC`: to the minute, in UTC as the hub's logs are. */
function when(iso) {
  return iso === null ? null : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function opens(token) {
  if (token.resources === null) return 'every endpoint';
  return token.resources.map((name) => (name === 'hub' ? `/hub${token.servers === null ? '' : ` (${token.servers.join(', ')} only)`}` : `/${name}/mcp`)).join(', ');
}

async function loadTokens() {
  const answer = await call('GET', '/tokens');
  const box = document.getElementById('token-list');
  if (!answer.ok) return box.replaceChildren(el('p', { class: 'alert', role: 'alert', text: answer.data.error?.message ?? 'The tokens did not load.' }));
  const { tokens } = answer.data;
  if (tokens.length === 0) return box.replaceChildren(el('p', { text: 'No API token yet (expired ones are not listed): mint one below.' }));
  const head = el('thead', {}, el('tr', {}, ...['Label', 'Opens', 'Created', 'Last used', 'Expires', 'Status', 'Actions'].map((name) => el('th', { scope: 'col', text: name }))));
  const rows = tokens.map((token) => {
    const cell = (label, text) => el('td', { 'data-label': label, text });
    const label = token.label ?? '(no label)';
    const revoke = token.revoked ? '' : el('button', { type: 'button', 'data-revoke': token.id, 'aria-label': `Revoke ${label} (${token.id})`, text: 'Revoke' });
    return el(
      'tr',
      { id: `token-${token.id}` },
      el('th', { scope: 'row', 'data-label': 'Label' }, el('span', { text: label }), el('br'), el('small', { text: token.id })),
      cell('Opens', opens(token)),
      cell('Created', when(token.issuedAt)),
      cell('Last used', when(token.lastUsedAt) ?? 'never'),
      cell('Expires', when(token.expiresAt) ?? 'never'),
      el('td', { 'data-label': 'Status', class: token.revoked ? 'bad' : 'ok', text: token.revoked ? 'revoked' : 'active' }),
      el('td', { 'data-label': 'Actions', class: 'actions' }, revoke),
    );
  });
  box.replaceChildren(el('table', {}, el('caption', { class: 'visually-hidden', text: 'API tokens' }), head, el('tbody', {}, ...rows)));
}

async function loadClients() {
  const answer = await call('GET', '/clients');
  const box = document.getElementById('client-list');
  if (!answer.ok) return box.replaceChildren(el('p', { class: 'alert', role: 'alert', text: answer.data.error?.message ?? 'The OAuth clients did not load.' }));
  const { clients } = answer.data;
  if (clients.length === 0) return box.replaceChildren(el('p', { text: 'No OAuth client has registered yet.' }));
  const head = el('thead', {}, el('tr', {}, ...['Client', 'Registered by', 'Redirect URIs', 'Registered', 'Tokens revoked', 'Actions'].map((name) => el('th', { scope: 'col', text: name }))));
  const rows = clients.map((client) => {
    const cell = (label, text) => el('td', { 'data-label': label, text });
    const name = client.name ?? '(no name)';
    return el(
      'tr',
      { 'data-client': client.clientId },
      el('th', { scope: 'row', 'data-label': 'Client' }, el('span', { text: name }), el('br'), el('small', { text: client.clientId })),
      cell('Registered by', client.source === 'operator' ? 'an operator' : 'itself'),
      el(
        'td',
        { 'data-label': 'Redirect URIs', class: 'last-error' },
        ...client.redirectUris.flatMap((uri, index) => (index === 0 ? [el('span', { text: uri })] : [el('br'), el('span', { text: uri })])),
      ),
      cell('Registered', when(client.issuedAt)),
      cell('Tokens revoked', when(client.tokensRevokedAt) ?? 'never'),
      el(
        'td',
        { 'data-label': 'Actions', class: 'actions' },
        el('button', { type: 'button', 'data-revoke-client': client.clientId, 'aria-label': `Revoke its tokens: ${name} (${client.clientId})`, text: 'Revoke its tokens' }),
      ),
    );
  });
  box.replaceChildren(el('table', {}, el('caption', { class: 'visually-hidden', text: 'OAuth clients' }), head, el('tbody', {}, ...rows)));
}

async function revokeClient(button) {
  const clientId = button.dataset.revokeClient;
  if (!window.confirm(`Revoke every token of OAuth client ${clientId}? It is refused from its next request, until it signs in again.`)) return;
  const answer = await call('DELETE', '/clients', { clientId });
  if (!answer.ok) return notice(answer.data.error?.message ?? 'The client was not revoked.', 'error');
  // The list first, then the notice: what the notice announces is already in the list.
  await loadClients();
  notice(`Every token of OAuth client ${clientId} revoked.`);
  document.getElementById('clients-title').focus();
}

async function revoke(button) {
  const id = button.dataset.revoke;
  if (!window.confirm(`Revoke API token ${id}? Every client using it is refused from its next request.`)) return;
  const answer = await call('DELETE', '/tokens', { id });
  if (!answer.ok) return notice(answer.data.error?.message ?? 'The token was not revoked.', 'error');
  await loadTokens();
  notice(`API token ${id} revoked.`);
  document.getElementById('tokens-title').focus();
}

function fieldError(id, text, focus) {
  document.getElementById(id).textContent = text;
  if (text && focus) document.getElementById(focus).focus();
}

async function mint(event) {
  event.preventDefault();
  const form = event.target;
  const all = form.elements.all.checked;
  const ticked = (name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((box) => box.value);
  const resources = ticked('resources');
  const servers = ticked('servers');
  const days = form.elements.expiresInDays.value.trim();
  fieldError('mint-opens-error', '');
  fieldError('mint-expiry-error', '');
  form.elements.expiresInDays.removeAttribute('aria-invalid');
  if (!all && resources.length === 0) return fieldError('mint-opens-error', 'Tick what the token opens (the fewest endpoints its holder needs), or Every endpoint.', 'mint-all');
  if (days !== '' && !(Number(days) > 0)) {
    form.elements.expiresInDays.setAttribute('aria-invalid', 'true');
    return fieldError('mint-expiry-error', 'A positive number of days, or empty for no expiry.', 'mint-expiry');
  }
  const body = {
    ...(form.elements.label.value.trim() && { label: form.elements.label.value.trim() }),
    ...(days !== '' && { expiresInDays: Number(days) }),
    ...(all ? { all: true } : { resources }),
    ...(!all && resources.includes('hub') && servers.length > 0 && { servers }),
  };
  const answer = await call('POST', '/tokens', body);
  if (!answer.ok) return fieldError('mint-opens-error', answer.data.error?.message ?? 'No token was minted.', 'mint-all');
  form.reset();
  syncChoices();
  showMinted(answer.data);
  await loadTokens();
}

function showMinted(minted) {
  const block = (id, title, text) => [
    el('h4', { id: `${id}-title`, text: title }),
    el('pre', { id, tabindex: '0', 'aria-labelledby': `${id}-title`, text }),
    el('p', { class: 'buttons' }, el('button', { type: 'button', 'data-copy': id, text: `Copy: ${title}` })),
  ];
  document.getElementById('minted-body').replaceChildren(
    el('p', {
      text: `Token ${minted.id}: opens ${minted.opens}; ${minted.expiresAt === null ? 'no expiry' : `expires ${when(minted.expiresAt)}`}. Endpoint${
        minted.endpoints.length > 1 ? 's' : ''
      }: ${minted.endpoints.join(', ')}.`,
    }),
    ...block('minted-token', 'The token', minted.token),
    ...block('snippet-claude-code', 'Claude Code', minted.snippets.claudeCode),
    ...block('snippet-vs-code', 'VS Code (.vscode/mcp.json)', minted.snippets.vsCode),
    ...block('snippet-sdk', 'The v2 SDK (JavaScript)', minted.snippets.sdk),
  );
  const section = document.getElementById('minted');
  section.hidden = false;
  document.getElementById('minted-title').focus();
}

async function copy(button) {
  const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
  try {
    await navigator.clipboard.writeText(text);
    notice('Copied.');
  } catch {
    notice('The browser did not allow copying: select the text and copy it.', 'error');
  }
}

/** "Every endpoint" excludes the single choices; the /hub servers apply with /hub only. */
function syncChoices() {
  const form = document.getElementById('mint-form');
  const all = form.elements.all.checked;
  for (const box of form.querySelectorAll('input[name="resources"]')) box.disabled = all;
  const hub = !all && document.getElementById('resource-hub').checked;
  for (const box of form.querySelectorAll('input[name="servers"]')) box.disabled = !hub;
}

const form = document.getElementById('mint-form');
if (form) {
  form.addEventListener('submit', (event) => void mint(event));
  form.addEventListener('change', syncChoices);
  syncChoices();
  document.getElementById('token-list').addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-revoke]') : null;
    if (button) void revoke(button);
  });
  document.getElementById('client-list').addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-revoke-client]') : null;
    if (button) void revokeClient(button);
  });
  document.getElementById('minted').addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
    if (button) void copy(button);
  });
  document.getElementById('minted-done').addEventListener('click', () => {
    document.getElementById('minted-body').replaceChildren();
    document.getElementById('minted').hidden = true;
    document.getElementById('tokens-title').focus();
  });
  await Promise.all([loadTokens(), loadClients()]);
  const again = () =>
    setTimeout(async () => {
      if (!document.getElementById('token-list').contains(document.activeElement)) await loadTokens();
      if (!document.getElementById('client-list').contains(document.activeElement)) await loadClients();
      again();
    }, REFRESH_MS);
  again();
}
