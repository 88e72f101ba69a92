// The console's calls view (/console/calls): the last tool calls from GET /console/api/calls,
// then each new one from its event stream, filtered as the form says (the filter lives in
// the page's query string, so a reload or a link keeps it). Every string the hub or a
// server sent is put in the page as text (textContent), never as markup.

const base = document.querySelector('meta[name="console-base"]')?.getAttribute('content') ?? '';
const api = `${base}/console/api`;
const OUTCOMES = ['ok', 'tool_error', 'protocol_error', 'timeout', 'unavailable', 'drained', 'unknown_tool', 'denied', 'refused'];
/** Rows the table shows at most (the hub may keep more: a filter finds them). */
const SHOWN = 500;

const form = document.getElementById('calls-filter');
const live = document.getElementById('calls-live');
const box = document.getElementById('calls');
const detail = document.getElementById('call-detail');
/** @type {any[]} newest first */
let calls = [];
/** @type {EventSource | undefined} */
let source;

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

function filterQuery() {
  const query = new URLSearchParams();
  for (const name of ['server', 'caller', 'outcome']) {
    const value = form.elements[name].value.trim();
    if (value !== '') query.set(name, value);
  }
  return query;
}

function bytes(value) {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${(value / 1024 / 1024).toFixed(1)} MB`;
}

/** The caller as a person reads it: an API token's label beside its id. */
function callerText(record) {
  if (record.caller === null) return '(open hub)';
  return record.callerLabel ? `${record.callerLabel} (${record.caller})` : record.caller;
}

function row(record) {
  const ok = record.outcome === 'ok';
  const when = new Date(record.time);
  const button = el('button', { type: 'button', 'data-call': record.id, 'aria-label': `Details of call ${record.id} (${record.tool} on ${record.server})`, text: 'Details' });
  button.addEventListener('click', () => showDetail(record));
  return el(
    'tr',
    { 'data-call': record.id, 'data-outcome': record.outcome },
    el('td', { 'data-label': 'Time' }, el('time', { datetime: record.time, text: when.toLocaleTimeString() })),
    el('td', { 'data-label': 'Caller', text: callerText(record) }),
    el('td', { 'data-label': 'Server', text: record.virtual ? `${record.virtual.server} → ${record.server}` : record.server }),
    el('td', { 'data-label': 'Tool', class: 'last-error', text: record.tool }),
    el('td', { 'data-label': 'Outcome', class: ok ? 'ok' : 'bad', text: record.outcome }),
    el('td', { 'data-label': 'Duration', class: 'num', text: `${record.durationMs < 10 ? record.durationMs.toFixed(1) : Math.round(record.durationMs)} ms` }),
    el('td', { 'data-label': 'In', class: 'num', text: bytes(record.bytesIn) }),
    el('td', { 'data-label': 'Out', class: 'num', text: bytes(record.bytesOut) }),
    el('td', { 'data-label': 'Detail' }, button),
  );
}

function draw() {
  if (calls.length === 0) {
    box.replaceChildren(el('p', { text: filterQuery().size > 0 ? 'No call matches the filter yet.' : 'No tool call yet: calls appear here as they end.' }));
    return;
  }
  const head = el('thead', {}, el('tr', {}, ...['Time', 'Caller', 'Server', 'Tool', 'Outcome', 'Duration', 'Bytes in', 'Bytes out', 'Detail'].map((name) => el('th', { scope: 'col', text: name }))));
  box.replaceChildren(el('table', { id: 'call-table' }, el('caption', { text: `${calls.length} call${calls.length === 1 ? '' : 's'}, newest first` }), head, el('tbody', {}, ...calls.map(row))));
}

function showDetail(record) {
  const pairs = [
    ['Outcome', record.outcome],
    ['Error', record.error ?? (record.outcome === 'ok' ? '–' : '(no text)')],
    ['Error code', record.errorCode ?? '–'],
    ['Trace id', record.traceId ?? '–'],
    ['Caller', callerText(record)],
    ['Via', record.via ?? `/${record.virtual?.server ?? record.server}/mcp`],
    ['Server', record.server],
    ['Tool', record.tool],
    ['Virtual server', record.virtual ? `${record.virtual.server} (its tool ${record.virtual.tool})` : '–'],
    ['Revision', record.revision],
    ['Ended', record.time],
  ];
  document.getElementById('call-detail-title').textContent = `Call ${record.id}: ${record.tool} on ${record.server}`;
  const list = el('dl', { class: 'call-detail' });
  for (const [name, value] of pairs) list.append(el('dt', { text: name }), el('dd', {}, name === 'Error' && record.error ? el('pre', { text: value }) : String(value)));
  // The server's last stderr lines when the call failed (secrets masked by the hub), as text.
  if (record.stderr && record.stderr.length > 0) list.append(el('dt', { text: 'Stderr' }), el('dd', {}, el('pre', { class: 'call-stderr', text: record.stderr.join('\n') })));
  document.getElementById('call-detail-body').replaceChildren(list);
  detail.hidden = false;
  document.getElementById('call-detail-title').focus();
}

async function load() {
  const query = filterQuery();
  const response = await fetch(`${api}/calls?${query}`, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  const data = await response.json().catch(() => ({ error: { message: `The hub answered ${response.status} without JSON.` } }));
  if (!response.ok) {
    box.replaceChildren(el('p', { class: 'alert', text: data.error?.message ?? `The hub answered ${response.status}.` }));
    return;
  }
  calls = data.calls.slice(0, SHOWN);
  draw();
  follow(query, calls[0]?.id);
}

function follow(query, lastId) {
  source?.close();
  live.textContent = 'Connecting to the live stream…';
  // From the last call listed (`after`), so none that ended in between is missed; the browser's reconnects send Last-Event-ID.
  const from = new URLSearchParams(query);
  from.set('after', String(lastId ?? 0));
  source = new EventSource(`${api}/calls/stream?${from}`);
  source.addEventListener('open', () => (live.textContent = 'Live: new calls appear as they end.'));
  source.addEventListener('error', () => (live.textContent = source.readyState === EventSource.CLOSED ? 'The live stream stopped: reload the page.' : 'The live stream was cut: reconnecting…'));
  source.addEventListener('call', (event) => {
    const record = JSON.parse(event.data);
    if (lastId !== undefined && record.id <= lastId) return;
    calls.unshift(record);
    calls.length = Math.min(calls.length, SHOWN);
    draw();
  });
}

const outcome = form.elements.outcome;
for (const name of OUTCOMES) outcome.append(el('option', { value: name, text: name }));
const initial = new URLSearchParams(location.search);
for (const name of ['server', 'caller', 'outcome']) if (initial.has(name)) form.elements[name].value = initial.get(name);
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const query = filterQuery();
  history.replaceState(null, '', `${location.pathname}${query.size > 0 ? `?${query}` : ''}`);
  detail.hidden = true;
  void load();
});
await load();
