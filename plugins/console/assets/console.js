// The operator console's script (a module; no inline script, nothing from elsewhere).
//
// The add/edit form is generated here from the TypeBox schemas the hub checks entries with
// (GET /console/api/schemas: the server entry, each child type's entrySchema, each plugin's
// serverKeys). Written by hand rather than with a JSON-Schema form library: the well-kept
// ones (react-jsonschema-form, JSON Forms) need React or Angular and a bundler run at
// install, and @json-editor/json-editor writes style attributes and <style> elements at
// run time, which the console's CSP (no inline style) blocks; the schemas here are flat
// (strings, numbers, booleans, string lists and maps), which ~150 lines cover. Every
// string the hub or a server sent is put in the page as text (textContent), never as markup.

const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
const base = document.querySelector('meta[name="console-base"]')?.getAttribute('content') ?? '';
const api = `${base}/console/api`;
/** Which view the page is: servers, overview or approvals (each its own URL). */
const view = document.querySelector('meta[name="console-view"]')?.getAttribute('content') ?? 'servers';
/** How often the server list is read again. */
const REFRESH_MS = 3000;

/** @type {{ version: string, readOnly: string | null, servers: any[] } | undefined} */
let state;
/** @type {any} */
let schemas;

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
  const box = document.getElementById('notice');
  box.replaceChildren(text ? el('p', { class: kind === 'ok' ? 'notice' : 'alert', text }) : '');
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

async function loadServers() {
  const answer = await call('GET', '/servers');
  if (!answer.ok) return notice(answer.data.error?.message ?? 'The server list did not load.', 'error');
  state = answer.data;
  drawReadOnly();
  drawServers();
}

function drawReadOnly() {
  const box = document.getElementById('read-only');
  box.replaceChildren(
    state.readOnly
      ? el('div', { class: 'alert', role: 'note', id: 'read-only-reason' }, el('p', { text: `Read-only: ${state.readOnly}. The console shows the JSON to paste into the file instead of saving.` }))
      : '',
  );
  document.getElementById('add-server').hidden = false;
}

function drawServers() {
  const list = document.getElementById('server-list');
  if (state.servers.length === 0) return list.replaceChildren(el('p', { text: 'No server is configured yet.' }));
  const head = el('thead', {}, el('tr', {}, ...['Server', 'Type', 'Status', 'Tools', 'Last error', 'Uptime', 'Wakes', 'Actions'].map((name) => el('th', { scope: 'col', text: name }))));
  const rows = state.servers.map((server) => {
    const cell = (label, content, className) => el('td', { 'data-label': label, class: className }, content);
    const actions = el('td', { 'data-label': 'Actions', class: 'actions' });
    if (server.status !== 'disabled' && server.status !== 'not running')
      actions.append(el('button', { type: 'button', 'data-tools': server.name, 'aria-label': `Tools of ${server.name}`, text: 'Tools' }));
    for (const action of server.actions ?? []) actions.append(actionButton(server.name, action));
    if (server.configured) {
      actions.append(el('button', { type: 'button', 'data-edit': server.name, 'aria-label': `Edit ${server.name}`, text: 'Edit' }));
      actions.append(el('button', { type: 'button', 'data-duplicate': server.name, 'aria-label': `Duplicate ${server.name}`, text: 'Duplicate' }));
      actions.append(el('button', { type: 'button', 'data-remove': server.name, 'aria-label': `Remove ${server.name}`, text: 'Remove' }));
    } else actions.append(el('span', { text: 'provided by a plugin' }));
    return el(
      'tr',
      { id: `server-${server.name}` },
      el('th', { scope: 'row', 'data-label': 'Server', text: server.name }),
      cell('Type', server.type),
      cell('Status', server.status, `status ${server.status === 'up' ? 'ok' : server.status === 'down' || server.status === 'stopped' ? 'bad' : ''}`),
      cell('Tools', server.toolCount === null ? 'not yet known' : String(server.toolCount), 'num tools'),
      cell('Last error', server.lastError ?? '–', 'last-error'),
      cell('Uptime', duration(server.uptimeSeconds), 'num'),
      cell('Wakes', String(server.wakes), 'num wakes'),
      actions,
    );
  });
  list.replaceChildren(el('table', { 'aria-labelledby': 'servers' }, head, el('tbody', {}, ...rows)));
}

// --- A server's tools, as the hub knows them (a sleeping server's from its snapshot: nothing is woken) ---

async function showTools(name) {
  const answer = await call('GET', `/servers/${encodeURIComponent(name)}/tools`);
  const section = document.getElementById('tools');
  section.hidden = false;
  const title = document.getElementById('tools-title');
  title.textContent = `Tools of ${name}`;
  const box = document.getElementById('tool-list');
  if (!answer.ok) {
    box.replaceChildren(el('p', { class: 'alert', text: answer.data.error?.message ?? 'The tools did not load.' }));
  } else if (!answer.data.toolsKnown) {
    box.replaceChildren(el('p', { text: `Not known yet: ${name} has not been started since it was added (it is ${answer.data.status}). Its tools are listed once it has run.` }));
  } else {
    const { tools, withheld, status } = answer.data;
    box.replaceChildren(
      el('p', { text: `${tools.length} tools offered${withheld.length > 0 ? `, ${withheld.length} withheld` : ''}; the server is ${status}.` }),
      ...tools.map((tool, index) =>
        el(
          'article',
          { class: 'tool', 'aria-label': `Tool ${tool.name}` },
          el('h3', {}, el('code', { text: tool.name }), tool.title ? ` – ${tool.title}` : ''),
          tool.description ? el('p', { class: 'description', text: tool.description }) : '',
          tool.annotations
            ? el('p', {
                class: 'hint',
                text: `Annotations: ${Object.entries(tool.annotations)
                  .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
                  .join(', ')}`,
              })
            : '',
          el('details', {}, el('summary', { text: 'Input schema' }), el('pre', { text: JSON.stringify(tool.inputSchema, null, 2) })),
          playground(name, tool, index),
        ),
      ),
      withheld.length > 0
        ? el('div', { class: 'alert' }, el('h3', { text: 'Withheld' }), el('ul', {}, ...withheld.map((tool) => el('li', {}, el('code', { text: tool.name }), ` – ${tool.reason}`))))
        : '',
    );
  }
  title.focus();
}

/**
 * The playground of one tool: a form generated from its input schema (a field per
 * property, drawn as the entry form's are; JSON for a property of another shape), or a
 * JSON box for a schema without properties; a Call button; the result as the hub's call
 * pipeline returned it.
 */
function playground(server, tool, index) {
  const id = `call-${index}`;
  const required = new Set(tool.inputSchema?.required ?? []);
  const fields = Object.entries(tool.inputSchema?.properties ?? {}).map(([key, schema], at) => ({ key, schema: schema ?? {}, required: required.has(key), id: `${id}-arg-${at}` }));
  const hint = 'The call goes through the hub as any call does (filters, pinning, guardrails, metrics), recorded as made by the console.';
  let inputs;
  let read;
  if (fields.length > 0) {
    inputs = [el('p', { id: `${id}-hint`, class: 'hint', text: `${hint} A field left empty is not sent.` }), ...fields.map((field) => fieldControl(field, field.schema.default, [], field.id))];
    read = () => argumentsFromFields(fields);
  } else {
    const area = el('textarea', { id: `${id}-arguments`, rows: 4, spellcheck: 'false', 'aria-describedby': `${id}-hint ${id}-arguments-error` });
    area.value = '{}';
    inputs = [
      el(
        'div',
        { class: 'field' },
        el('label', { for: area.id, text: `Arguments of ${tool.name} (JSON)` }),
        area,
        el('p', { id: `${id}-hint`, class: 'hint', text: `Its schema names no property. ${hint}` }),
        el('p', { id: `${id}-arguments-error`, class: 'field-error' }),
      ),
    ];
    read = () => argumentsFromFields([{ key: undefined, id: area.id }]);
  }
  const output = el('div', { id: `${id}-result`, class: 'call-result', 'aria-live': 'polite' });
  const button = el('button', { type: 'button', class: 'primary', text: `Call ${tool.name}` });
  button.addEventListener('click', () => {
    const args = read();
    if (args !== undefined) void callTool(server, tool.name, args, output);
  });
  return el('details', { class: 'playground' }, el('summary', { text: 'Try it' }), ...inputs, button, output);
}

/** The arguments the playground's fields say (a field with no key is the whole object, as JSON), or undefined with each wrong field marked. */
function argumentsFromFields(fields) {
  const args = {};
  let wrong;
  for (const field of fields) {
    const control = document.getElementById(field.id);
    const error = document.getElementById(`${field.id}-error`);
    const read = field.key === undefined ? readJsonObject(control.value) : readControl(control);
    error.textContent = read.invalid ? `Not sent: ${read.invalid}.` : '';
    control.setAttribute('aria-invalid', read.invalid ? 'true' : 'false');
    if (read.invalid) wrong ??= control;
    else if (field.key === undefined) Object.assign(args, read.value);
    else if (read.value !== undefined) args[field.key] = read.value;
  }
  if (wrong === undefined) return args;
  wrong.focus();
  return undefined;
}

function readJsonObject(text) {
  try {
    const value = JSON.parse(text.trim() === '' ? '{}' : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { value } : { invalid: 'the arguments are a JSON object, in braces' };
  } catch (error) {
    return { invalid: `not JSON: ${error.message}` };
  }
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

async function callTool(server, tool, args, output) {
  output.replaceChildren(el('p', { text: `Calling ${tool}…` }));
  const answer = await call('POST', `/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(tool)}/call`, { arguments: args });
  if (!answer.ok) {
    output.replaceChildren(el('p', { class: 'alert', role: 'alert', text: answer.data.error?.message ?? 'The call failed.' }));
    return;
  }
  const { result, outcome, durationMs } = answer.data;
  const parts = (result.content ?? []).map((part) => {
    if (part.type === 'text') return el('pre', { class: 'part-text', text: part.text });
    if (part.type === 'image' && IMAGE_TYPES.has(part.mimeType)) return el('img', { src: `data:${part.mimeType};base64,${part.data}`, alt: `An image the tool returned (${part.mimeType})` });
    if (part.type === 'resource_link') return el('p', { class: 'part-link', text: `Resource link: ${part.name ?? ''} ${part.uri}` });
    return el('pre', { class: 'part-other', text: JSON.stringify(part, null, 2) });
  });
  output.replaceChildren(
    el('p', { class: result.isError ? 'bad' : 'ok', text: `Outcome: ${outcome ?? (result.isError ? 'tool_error' : 'ok')}, in ${durationMs} ms.` }),
    ...parts,
    result.structuredContent === undefined ? '' : el('details', {}, el('summary', { text: 'Structured content' }), el('pre', { text: JSON.stringify(result.structuredContent, null, 2) })),
  );
}

// --- The entry form -------------------------------------------------------------------

/** Keys some child type declares (command, url, ...): shown only for a type that declares them. */
function typeKeys() {
  return new Set(schemas.types.flatMap(({ schema }) => Object.keys(schema.properties ?? {})));
}

/** The fields for `type`, in order: the type's own keys, the hub's keys, the plugins' keys. */
function fieldsFor(type) {
  const own = schemas.types.find((candidate) => candidate.type === type)?.schema ?? { properties: {}, required: [] };
  const declaredByTypes = typeKeys();
  const fields = [];
  for (const [key, schema] of Object.entries(own.properties ?? {})) if (key !== 'type') fields.push({ key, schema, required: (own.required ?? []).includes(key) });
  for (const [key, schema] of Object.entries(schemas.entry.properties ?? {})) {
    if (key === 'type' || declaredByTypes.has(key) || fields.some((field) => field.key === key)) continue;
    fields.push({ key, schema, required: false });
  }
  for (const { key, plugin, schema } of schemas.serverKeys)
    if (!fields.some((field) => field.key === key)) fields.push({ key, schema: { ...schema, description: `${schema.description ?? ''} (plugin ${plugin})`.trim() }, required: false });
  return fields;
}

function kindOf(schema) {
  if (schema.type === 'string' && Array.isArray(schema.enum)) return 'enum';
  if (schema.type === 'string') return 'string';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'array' && schema.items?.type === 'string') return 'lines';
  if (schema.type === 'object' && schema.patternProperties && Object.values(schema.patternProperties).every((value) => value.type === 'string')) return 'pairs';
  return 'json';
}

const HINTS = { lines: 'One item a line.', pairs: 'One NAME=value a line. Keep secrets as ${VAR} references or _FILE paths, never their values.', json: 'JSON.' };

/**
 * One field of the form. `secrets` are the values of the field the hub did not send
 * (written literally in mcp.json): each shows as "[secret kept]", which saves the file's
 * value unchanged, with a note to move it to a ${VAR} reference or a _FILE path.
 */
function fieldControl(field, value, secrets = [], id = `field-${field.key}`) {
  const kind = kindOf(field.schema);
  const described = [`${id}-hint`, `${id}-error`, ...(secrets.length > 0 ? [`${id}-secrets`] : [])].join(' ');
  const common = { id, name: field.key, 'aria-describedby': described, required: field.required };
  let control;
  if (kind === 'boolean') {
    control = el('select', common, el('option', { value: '', text: '(not set)' }), el('option', { value: 'true', text: 'true' }), el('option', { value: 'false', text: 'false' }));
    control.value = value === true ? 'true' : value === false ? 'false' : '';
  } else if (kind === 'enum') {
    control = el('select', common, el('option', { value: '', text: '(not set)' }), ...field.schema.enum.map((option) => el('option', { value: option, text: option })));
    control.value = value ?? '';
  } else if (kind === 'string' || kind === 'number') {
    control = el('input', { ...common, type: kind === 'number' ? 'number' : 'text', autocomplete: 'off', spellcheck: 'false' });
    control.value = value === undefined ? '' : String(value);
  } else {
    control = el('textarea', { ...common, rows: 3, spellcheck: 'false' });
    // A default a server declared may not fit its own type: it is then shown as JSON.
    control.value =
      value === undefined
        ? ''
        : kind === 'lines' && Array.isArray(value)
          ? value.join('\n')
          : kind === 'pairs' && value !== null && typeof value === 'object'
            ? Object.entries(value)
                .map(([name, text]) => `${name}=${text}`)
                .join('\n')
            : JSON.stringify(value, null, 2);
  }
  control.dataset.kind = kind;
  const hint = [field.schema.description, HINTS[kind]].filter(Boolean).join(' ');
  return el(
    'div',
    { class: 'field' },
    el('label', { for: id, text: `${field.key}${field.required ? ' (required)' : ''}` }),
    control,
    el('p', { id: `${id}-hint`, class: 'hint', text: hint }),
    secrets.length > 0 ? el('p', { id: `${id}-secrets`, class: 'secret-note', text: secrets.map(({ key, note }) => `${key}: ${note}.`).join(' ') }) : '',
    el('p', { id: `${id}-error`, class: 'field-error' }),
  );
}

/** What one control says: `{ value }` (no value when it is left empty: the key is then not written), or `{ invalid }`, what is wrong. */
function readControl(control) {
  const text = control.value;
  if (text.trim() === '') return {};
  switch (control.dataset.kind) {
    case 'boolean':
      return { value: text === 'true' };
    case 'number':
      return Number.isFinite(Number(text)) ? { value: Number(text) } : { invalid: 'not a number' };
    case 'lines':
      return {
        value: text
          .split('\n')
          .map((line) => line.trimEnd())
          .filter((line) => line !== ''),
      };
    case 'pairs': {
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      const bad = lines.find((line) => line.indexOf('=') < 1);
      if (bad !== undefined) return { invalid: `"${bad}" is not NAME=value` };
      return { value: Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1)])) };
    }
    case 'json':
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        return { invalid: `not JSON: ${error.message}` };
      }
    default:
      return { value: text };
  }
}

/**
 * The entry being edited, and the version of the file it was read from: a save is made
 * against that version (not the list's, which a refresh moves on), so a change made
 * meanwhile elsewhere is a conflict, never overwritten.
 * @type {{ name: string | undefined, entry: Record<string, unknown>, secrets: { key: string, note: string }[], version: string }}
 */
let editing = { name: undefined, entry: {}, secrets: [], version: '' };

/** A name for the copy of `name` no server has yet: name-copy, name-copy-2, … */
function copyName(name) {
  const taken = new Set(state.servers.map((server) => server.name));
  for (let index = 1; ; index += 1) {
    const candidate = `${name}-copy${index === 1 ? '' : `-${index}`}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The form over the entry `name` (to edit it), over a copy of it (`duplicate`: saved under a new name), or empty. */
function openEditor(name, duplicate = false) {
  const server = name === undefined ? undefined : state.servers.find((candidate) => candidate.name === name);
  editing = { name: duplicate ? undefined : name, entry: server?.entry ? structuredClone(server.entry) : {}, secrets: server?.secrets ?? [], version: state.version };
  const editor = document.getElementById('editor');
  editor.hidden = false;
  document.getElementById('editor-title').textContent = name === undefined ? 'Add a server' : duplicate ? `Duplicate ${name}` : `Edit ${name}`;
  document.getElementById('test-result').replaceChildren();
  document.getElementById('conflict').replaceChildren();
  drawForm();
  if (duplicate) document.getElementById('field-name').value = copyName(name);
  document.getElementById('field-name').focus();
}

function currentType() {
  const entry = editing.entry;
  if (typeof entry.type === 'string') return entry.type;
  if (entry.url !== undefined) return 'http';
  return 'stdio';
}

function drawForm() {
  const form = document.getElementById('entry-form');
  const type = currentType();
  const nameField = el(
    'div',
    { class: 'field' },
    el('label', { for: 'field-name', text: 'Name (required)' }),
    el('input', {
      id: 'field-name',
      name: 'name',
      required: true,
      autocomplete: 'off',
      spellcheck: 'false',
      pattern: '[A-Za-z0-9][A-Za-z0-9_\\-]{0,63}',
      'aria-describedby': 'field-name-hint field-name-error',
      readonly: editing.name !== undefined,
    }),
    el('p', { id: 'field-name-hint', class: 'hint', text: 'Letters, digits, - and _: the server is served at /<name>/mcp.' }),
    el('p', { id: 'field-name-error', class: 'field-error' }),
  );
  const typeSelect = el('select', { id: 'field-type', name: 'type', 'aria-describedby': 'field-type-hint' }, ...schemas.types.map(({ type: option }) => el('option', { value: option, text: option })));
  typeSelect.value = type;
  const typeField = el(
    'div',
    { class: 'field' },
    el('label', { for: 'field-type', text: 'Type' }),
    typeSelect,
    el('p', { id: 'field-type-hint', class: 'hint', text: 'How the hub reaches the server; the fields below follow it.' }),
  );
  const fields = fieldsFor(type).map((field) =>
    fieldControl(
      field,
      editing.entry[field.key],
      editing.secrets.filter(({ key }) => key.split('.')[0] === field.key),
    ),
  );
  const buttons = el(
    'div',
    { class: 'buttons' },
    el('button', { type: 'button', id: 'test-entry', text: 'Test' }),
    el('button', { type: 'submit', id: 'save-entry', class: 'primary', text: state.readOnly ? 'Show the JSON to paste' : 'Save' }),
    el('button', { type: 'button', id: 'cancel-entry', text: 'Cancel' }),
  );
  form.replaceChildren(
    el('p', { id: 'form-error', class: 'field-error', role: 'alert' }),
    nameField,
    typeField,
    el('fieldset', {}, el('legend', { text: `Settings of a ${type} server` }), ...fields),
    buttons,
  );
  form.querySelector('#field-name').value = editing.name ?? '';
}

/** The entry the form describes: the entry read, with the form's fields over it (keys the form does not show are kept). */
function entryFromForm() {
  const form = document.getElementById('entry-form');
  clearErrors();
  const type = form.querySelector('#field-type').value;
  const entry = { ...editing.entry };
  const declaredByTypes = typeKeys();
  const shown = new Set(fieldsFor(type).map((field) => field.key));
  for (const key of Object.keys(entry)) if (declaredByTypes.has(key) && !shown.has(key)) delete entry[key];
  entry.type = type;
  let failed = false;
  for (const control of form.querySelectorAll('[data-kind]')) {
    const read = readControl(control);
    if (read.invalid !== undefined) {
      failed = true;
      showFieldError(control.name, read.invalid);
    } else if (read.value === undefined) delete entry[control.name];
    else entry[control.name] = read.value;
  }
  const name = form.querySelector('#field-name').value.trim();
  if (name === '') {
    failed = true;
    showFieldError('name', 'A name is needed.');
  }
  return failed ? undefined : { name, entry };
}

function clearErrors() {
  for (const node of document.querySelectorAll('#entry-form .field-error')) node.textContent = '';
  for (const node of document.querySelectorAll('#entry-form [aria-invalid]')) node.removeAttribute('aria-invalid');
}

/** One error beside its field (added to one it already shows: `args[0]` and `args[1]` are both the args field's), or above the form when no field is its. */
function showFieldError(key, message, focus = true) {
  const field = key ? document.getElementById(`field-${String(key).split(/[.[]/)[0]}`) : null;
  const box = field ? document.getElementById(`${field.id}-error`) : document.getElementById('form-error');
  box.textContent = box.textContent ? `${box.textContent} ${message}` : message;
  if (field) {
    field.setAttribute('aria-invalid', 'true');
    if (focus) field.focus();
  }
}

/** Every field error the hub found at once, each beside its field; the first field marked takes the focus. */
function showFieldErrors(errors) {
  errors.forEach(({ key, message }) => showFieldError(key, message, false));
  document.querySelector('#entry-form [aria-invalid="true"]')?.focus();
}

function showError(data) {
  const error = data.error ?? { message: 'The hub did not answer as expected.' };
  if (error.code === 'HUB_ERR_CONSOLE_ENTRY_INVALID') return showFieldErrors(error.errors ?? [{ key: error.key, message: error.message }]);
  if (error.code === 'HUB_ERR_CONSOLE_NAME_TAKEN') return showFieldError('name', error.message);
  if (error.code === 'HUB_ERR_CONSOLE_CONFLICT') {
    const box = document.getElementById('conflict');
    box.replaceChildren(
      el(
        'div',
        { class: 'alert', role: 'alert' },
        el('p', { text: error.message }),
        error.diff ? el('pre', { class: 'diff', 'aria-label': 'What changed in the file', text: error.diff }) : '',
        el('button', { type: 'button', id: 'reload-after-conflict', text: 'Reload the servers' }),
      ),
    );
    return;
  }
  if (error.code === 'HUB_ERR_CONSOLE_READ_ONLY') return showPaste(error.paste, error.reason);
  document.getElementById('form-error').textContent = error.message;
}

function showPaste(json, reason) {
  const box = document.getElementById('test-result');
  box.replaceChildren(
    el(
      'div',
      { class: 'alert' },
      el('p', { text: `The console cannot write the config (${reason}). Paste this into "mcpServers" where the file comes from:` }),
      el('pre', { id: 'paste-json', tabindex: 0, 'aria-label': 'The entry as JSON', text: json ?? '' }),
    ),
  );
}

/** The entry (name and all, as JSON) whose test passed last: a save right after it does not start it again. */
let passed;

/**
 * Save: an entry that will run is tested first, unless this very entry just passed; one
 * that fails is saved only with an explicit "Save anyway" (`anyway`), shown with the
 * failure. A disabled entry does not run, so it is not tested.
 */
async function save(event, anyway = false) {
  event?.preventDefault();
  const made = entryFromForm();
  if (!made) return;
  if (state.readOnly) return showPaste(JSON.stringify({ [made.name]: made.entry }, null, 2), state.readOnly);
  if (!anyway && made.entry.disabled !== true && passed !== JSON.stringify(made)) {
    // The focus goes to the failure, so that a keyboard user reads it before "Save anyway".
    if (!(await test(made))) return document.getElementById('test-failed-title')?.focus();
  }
  // A new entry (added, or a copy) never replaces one of the same name.
  const answer = await call('PUT', `/servers/${encodeURIComponent(made.name)}`, { entry: made.entry, version: editing.version, ...(editing.name === undefined && { new: true }) });
  if (!answer.ok) return showError(answer.data);
  document.getElementById('editor').hidden = true;
  await loadServers();
  notice(`Server ${made.name} ${answer.data.saved}.`);
  document.getElementById('add-server').focus();
}

/** Tests the entry of the form (or `made`); whether it passed. A failure offers "Save anyway". */
async function test(made = entryFromForm()) {
  if (!made) return false;
  const box = document.getElementById('test-result');
  box.replaceChildren(el('p', { text: `Testing ${made.name}…` }));
  const answer = await call('POST', `/servers/${encodeURIComponent(made.name)}/test`, { entry: made.entry });
  if (!answer.ok) {
    box.replaceChildren();
    showError(answer.data);
    return false;
  }
  const trial = answer.data;
  if (trial.ok) {
    passed = JSON.stringify(made);
    box.replaceChildren(
      el(
        'div',
        { class: 'notice', id: 'test-passed' },
        el('h3', { text: `Test passed: ${trial.serverInfo ? `${trial.serverInfo.name} ${trial.serverInfo.version}` : 'the server'} answered in ${trial.durationMs} ms` }),
        el('p', { text: `${trial.tools.length} tools, ${trial.prompts.length} prompts.` }),
        el('ul', { 'aria-label': 'Tools found' }, ...trial.tools.map((tool) => el('li', {}, el('code', { text: tool.name }), tool.description ? ` – ${tool.description}` : ''))),
        trial.prompts.length > 0 ? el('ul', { 'aria-label': 'Prompts found' }, ...trial.prompts.map((prompt) => el('li', {}, el('code', { text: prompt.name })))) : '',
      ),
    );
  } else {
    box.replaceChildren(
      el(
        'div',
        { class: 'alert', id: 'test-failed' },
        el('h3', { id: 'test-failed-title', tabindex: -1, text: 'Test failed: the server did not start' }),
        el('p', { class: 'test-error', text: trial.error }),
        trial.stderr.length > 0 ? el('pre', { class: 'stderr', tabindex: 0, 'aria-label': 'The end of its stderr', text: trial.stderr.join('\n') }) : el('p', { text: 'It wrote nothing to stderr.' }),
        el('p', { class: 'buttons' }, el('button', { type: 'button', id: 'save-anyway', text: 'Save anyway' })),
      ),
    );
  }
  return trial.ok;
}

async function remove(name) {
  if (state.readOnly) return notice(`Read-only: remove "${name}" from the file where it comes from.`, 'error');
  if (!window.confirm(`Remove server ${name} from the config file?`)) return;
  const answer = await call('DELETE', `/servers/${encodeURIComponent(name)}`, { version: state.version });
  if (!answer.ok) return notice(answer.data.error?.message ?? 'Not removed.', 'error');
  await loadServers();
  notice(`Server ${name} removed.`);
}

// --- Wake, sleep, restart (the servers and overview views) ----------------------------

const ACTION_LABELS = { wake: 'Wake', sleep: 'Sleep', restart: 'Restart' };

function actionButton(server, action) {
  return el('button', { type: 'button', 'data-action': action, 'data-server': server, 'aria-label': `${ACTION_LABELS[action]} ${server}`, text: ACTION_LABELS[action] });
}

async function serverAction(button) {
  const { action, server } = button.dataset;
  button.disabled = true;
  notice(`${ACTION_LABELS[action]} ${server}…`);
  const answer = await call('POST', `/servers/${encodeURIComponent(server)}/${action}`);
  // The view is drawn anew before the outcome is said, so what the notice says is what the row shows.
  await (view === 'overview' ? loadOverview() : loadServers());
  notice(answer.ok ? answer.data.message : (answer.data.error?.message ?? `Could not ${action} ${server}.`), answer.ok ? 'ok' : 'error');
  // The row was drawn anew: the focus goes back to the same server's buttons.
  document.querySelector(`[data-server="${CSS.escape(server)}"]`)?.focus();
}

// --- Overview: the hub's figures (the console's own API), and what /status showed, from /status.json (plugin observability)

/** The time of day for today's events, the date too for older ones; the full time in `datetime`. */
function time(iso, now) {
  const shown = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? `${iso.slice(11, 19)} UTC` : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  return el('time', { datetime: iso, text: shown });
}

function milliseconds(value) {
  if (value === null || value === undefined) return '–';
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

let overviewRefreshMs = 15_000;

async function loadOverview() {
  await Promise.all([loadHubFigures(), loadStatus()]);
}

/** The hub as a whole (GET /console/api/overview): the console's own, so it shows whether or not plugin observability's status is on. */
async function loadHubFigures() {
  const answer = await call('GET', '/overview');
  const box = document.getElementById('hub-overview');
  if (!answer.ok) {
    box.replaceChildren(el('p', { class: 'alert', role: 'alert', text: answer.data.error?.message ?? 'The hub figures did not load: reload the page (the login may have ended).' }));
    return;
  }
  const hub = answer.data;
  const minute = hub.lastMinute;
  const whom = ({ callers, servers }) => (callers && servers ? 'callers and servers' : callers ? 'callers only' : 'servers only');
  const figures = [
    ['Version', hub.version],
    ['Up for', duration(hub.uptimeSeconds)],
    ['MCP revisions', hub.revisions.map((revision) => `${revision.revision} (${whom(revision)})`).join(', ') || 'none'],
    ['Plugins on', hub.plugins.join(', ')],
    ['Calls in the last minute', minute === null ? 'not counted (callsKept is 0: the console listens to no call)' : String(minute.calls)],
    ['Error rate (last minute)', minute === null ? 'not counted' : minute.errorRate === null ? 'no call' : `${(minute.errorRate * 100).toFixed(1)} % (${minute.failed} failed)`],
    ['Memory', `${mebibytes(hub.memory.rssBytes)} resident, heap ${mebibytes(hub.memory.heapUsedBytes)} of ${mebibytes(hub.memory.heapTotalBytes)}`],
  ];
  box.replaceChildren(
    el('h2', { id: 'hub-now', text: 'The hub now' }),
    el('dl', { class: 'figures', 'aria-labelledby': 'hub-now' }, ...figures.flatMap(([term, value]) => [el('dt', { text: term }), el('dd', { text: value })])),
  );
}

function mebibytes(bytes) {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

async function loadStatus() {
  const response = await fetch(`${base}/status.json`, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  const box = document.getElementById('overview');
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('application/json')) {
    box.replaceChildren(
      el('p', {
        class: 'alert',
        role: 'alert',
        text:
          response.status === 404
            ? 'The overview needs plugin observability with its status (statusPage), which is off here.'
            : 'The overview did not load: reload the page (the login may have ended).',
      }),
    );
    return;
  }
  const data = await response.json();
  overviewRefreshMs = data.refreshSeconds * 1000;
  drawOverview(data);
}

function drawOverview(data) {
  const now = Date.parse(data.generatedAt);
  const troubled = data.servers.filter((server) => server.troubled);
  const parts = [];
  if (troubled.length > 0) {
    parts.push(
      el(
        'section',
        { role: 'alert', 'aria-labelledby': 'attention' },
        el('h2', { id: 'attention', text: troubled.length === 1 ? '1 server needs attention' : `${troubled.length} servers need attention` }),
        el('ul', {}, ...troubled.map((server) => el('li', {}, el('a', { href: `#server-${server.name}`, text: server.name }), `: ${server.status}${server.problem ? ` (${server.problem})` : ''}`))),
      ),
    );
  }
  if (data.waiting.length > 0) {
    parts.push(
      el(
        'section',
        { role: 'alert', 'aria-labelledby': 'waiting' },
        el('h2', { id: 'waiting', text: 'Waiting for an operator' }),
        el('ul', {}, ...data.waiting.map(({ title, path, note }) => el('li', {}, el('a', { href: `${base}${path}`, text: title }), `: ${note}`))),
      ),
    );
  }
  parts.push(el('h2', { id: 'servers', text: 'Servers' }));
  if (data.servers.length === 0) parts.push(el('p', { text: 'No server is configured.' }));
  else {
    const columns = ['Server', 'Status', 'Tools', 'Calls (1 h)', 'Errors (1 h)', 'p50', 'p99', 'Restarts', 'Last start', 'Last failure', 'Actions'];
    const numeric = new Set(['Tools', 'Calls (1 h)', 'Errors (1 h)', 'p50', 'p99', 'Restarts']);
    parts.push(
      el(
        'table',
        { 'aria-labelledby': 'servers' },
        el('thead', {}, el('tr', {}, ...columns.map((name) => el('th', { scope: 'col', class: numeric.has(name) ? 'num' : undefined, text: name })))),
        el('tbody', {}, ...data.servers.map((server) => overviewRow(server, now))),
      ),
    );
  }
  parts.push(el('h2', { id: 'tools-since-start', text: 'Tools since the start' }));
  const toolRows = [...data.servers.flatMap((server) => server.tools.map((tool) => toolRow(server.name, tool))), ...data.hub.tools.map((tool) => toolRow('hub', tool))];
  if (toolRows.length === 0) parts.push(el('p', { text: 'No tool is known yet.' }));
  else {
    const columns = ['Server', 'Tool', 'Calls', 'Errors', 'Outcomes', 'p50', 'p99'];
    parts.push(el('table', { 'aria-labelledby': 'tools-since-start' }, el('thead', {}, el('tr', {}, ...columns.map((name) => el('th', { scope: 'col', text: name })))), el('tbody', {}, ...toolRows)));
  }
  const count = data.servers.length;
  parts.push(
    el('h2', { id: 'hub', text: 'Hub' }),
    el(
      'p',
      {},
      `Version ${data.hub.version}, started `,
      time(data.hub.startedAt, now),
      `, ${count} server${count === 1 ? '' : 's'}. Updated `,
      time(data.generatedAt, now),
      `; read again every ${Math.round(overviewRefreshMs / 1000)} s. Metrics for machines are at `,
      el('code', { text: `${base}/metrics` }),
      '.',
    ),
    reloadText(data.hub.lastReload, now),
  );
  document.getElementById('overview').replaceChildren(...parts);
}

function overviewRow(server, now) {
  const cell = (label, className, ...content) => el('td', { 'data-label': label, class: className }, ...content);
  const status = [el('span', { class: `status ${server.troubled ? 'bad' : server.status === 'up' ? 'ok' : ''}`, text: server.status })];
  if (server.problem) status.push(el('br'), el('span', { class: 'reason', text: server.problem }));
  if (server.upstreamLogin === 'login needed') status.push(el('br'), el('span', { class: 'bad', text: 'upstream login needed' }));
  const tools =
    server.toolCount === null ? ['not yet known'] : [String(server.toolCount), ...(server.withheldTools > 0 ? [el('br'), el('span', { class: 'bad', text: `${server.withheldTools} withheld` })] : [])];
  const errors = server.recent.failed;
  const start = server.lastStart ? [time(server.lastStart.at, now), ` (${server.lastStart.reason})${server.lastUp ? `, up after ${server.lastUp.seconds.toFixed(2)} s` : ''}`] : ['not yet'];
  const failure = server.lastFailure
    ? [time(server.lastFailure.at, now), ` (${server.lastFailure.kind === 'crash' ? 'crashed' : 'start failed'}): `, el('span', { class: 'reason', text: server.lastFailure.reason })]
    : ['none'];
  const restarts = `${server.restarts}${server.crashes > 0 ? ` (${server.crashes} crash${server.crashes === 1 ? '' : 'es'})` : ''}`;
  return el(
    'tr',
    { id: `server-${server.name}` },
    el('th', { scope: 'row', 'data-label': 'Server', text: server.name }),
    cell('Status', 'status-cell', ...status),
    cell('Tools', 'num tools', ...tools),
    cell('Calls (1 h)', 'num calls', String(server.recent.calls)),
    cell('Errors (1 h)', `num errors${errors > 0 ? ' bad' : ''}`, String(errors)),
    cell('p50', 'num', milliseconds(server.recent.p50Ms)),
    cell('p99', 'num', milliseconds(server.recent.p99Ms)),
    cell('Restarts', 'num restarts', restarts),
    cell('Last start', 'start', ...start),
    cell('Last failure', 'failure', ...failure),
    cell('Actions', 'actions', ...(server.actions.length === 0 ? ['–'] : server.actions.map((action) => actionButton(server.name, action)))),
  );
}

function toolRow(server, tool) {
  const cell = (label, className, text) => el('td', { 'data-label': label, class: className, text });
  const outcomes = Object.entries(tool.outcomes)
    .filter(([, count]) => count > 0)
    .map(([outcome, count]) => `${outcome} ${count}`)
    .join(', ');
  return el(
    'tr',
    { id: `tool-${server}-${tool.name}` },
    el('th', { scope: 'row', 'data-label': 'Server', text: server }),
    cell('Tool', undefined, tool.name),
    cell('Calls', 'num calls', String(tool.calls)),
    cell('Errors', `num errors${tool.failed > 0 ? ' bad' : ''}`, String(tool.failed)),
    cell('Outcomes', 'outcomes', outcomes || '–'),
    cell('p50', 'num', milliseconds(tool.p50Ms)),
    cell('p99', 'num', milliseconds(tool.p99Ms)),
  );
}

function reloadText(reload, now) {
  if (!reload) return el('p', { id: 'last-reload', text: 'No config reload since the start.' });
  const at = time(reload.at, now);
  if (reload.outcome === 'refused')
    return el(
      'p',
      { id: 'last-reload' },
      el('span', { class: 'bad' }, `The last config reload (${reload.trigger}, `, at, ') was refused'),
      `: ${reload.error ?? ''} The running config stays in force.`,
    );
  const changes = [
    ['added', reload.added],
    ['removed', reload.removed],
    ['restarted', reload.restarted],
    ['retuned', reload.retuned],
  ]
    .filter(([, names]) => names.length > 0)
    .map(([what, names]) => `${what} ${names.join(', ')}`)
    .join('; ');
  return el('p', { id: 'last-reload' }, `The last config reload (${reload.trigger}, `, at, `) was applied${changes ? `: ${changes}` : ', with no server changed'}.`);
}

// --- Tool approvals: what /tool-approvals showed, from /tool-approvals.json (plugin tool-pinning) ---

async function approvalsCall(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const data = await response.json().catch(() => ({ error: { message: `The hub answered ${response.status} without JSON.` } }));
  return { ok: response.ok, status: response.status, data };
}

async function loadApprovals() {
  const answer = await approvalsCall('GET', '/tool-approvals.json');
  const box = document.getElementById('approvals');
  if (!answer.ok) {
    box.replaceChildren(
      el('p', { class: 'alert', role: 'alert', text: answer.data.error?.message ?? 'The approvals did not load.' }),
      el('button', { type: 'button', id: 'reload-approvals', text: 'Try again' }),
    );
    return;
  }
  drawApprovals(answer.data);
}

/** The diff's removed and added lines marked as such (`del`, `ins`), so that they read so without colour. */
function diffNode(diff, label) {
  // Focusable: a long diff scrolls, and the keyboard must reach it.
  const pre = el('pre', { class: 'diff', tabindex: 0, 'aria-label': label });
  diff.split('\n').forEach((line, index) => {
    if (index > 0) pre.append('\n');
    if (line.startsWith('-') && !line.startsWith('---')) pre.append(el('del', { text: line }));
    else if (line.startsWith('+') && !line.startsWith('+++')) pre.append(el('ins', { text: line }));
    else pre.append(line);
  });
  return pre;
}

function drawApprovals(data) {
  const parts = [el('h3', { id: 'waiting', text: 'Waiting for approval' })];
  if (data.waiting.length === 0) parts.push(el('p', { text: 'Nothing waits for approval.' }));
  for (const set of data.approveAll) {
    parts.push(
      set.digests === null
        ? el('p', {}, `${set.count} definitions of ${set.server} wait: approve them all with `, el('code', { text: `hub-admin tools approve ${set.server}` }), '.')
        : el(
            'p',
            {},
            el('button', { type: 'button', class: 'primary', 'data-approve-all': set.server, 'data-digests': set.digests.join(' '), text: `Approve all ${set.count} waiting of ${set.server}` }),
          ),
    );
  }
  data.waiting.forEach((change, index) => {
    const instructions = change.item === 'instructions';
    const name = instructions ? 'Instructions' : change.tool;
    const state = `${change.new ? 'New: never approved.' : 'Changed since it was approved.'}${
      instructions ? (change.new ? ' Callers get no instructions until then.' : ' Callers get the approved instructions until then.') : ''
    } Seen `;
    parts.push(
      el(
        'section',
        { class: 'change', 'aria-labelledby': `change-${index}` },
        el('h4', { id: `change-${index}`, text: `${name} of ${change.server}` }),
        el('p', {}, state, el('time', { datetime: change.seenAt, text: `${change.seenAt.slice(0, 19).replace('T', ' ')} UTC` }), '.'),
        change.tooLarge !== null
          ? el('p', { role: 'alert', class: 'bad', text: `Cannot be approved: ${change.tooLarge}.` })
          : el(
              'div',
              {},
              diffNode(change.diff, `What changed in ${name} of ${change.server}`),
              el('button', {
                type: 'button',
                class: 'primary',
                'data-approve': change.server,
                'data-tool': change.tool ?? undefined,
                'data-item': change.item ?? undefined,
                'data-digest': change.digest,
                text: `Approve ${instructions ? 'instructions' : change.tool} of ${change.server}`,
              }),
            ),
      ),
    );
  });
  parts.push(el('h3', { id: 'pinning', text: 'Servers that pin their tools' }));
  if (data.pinning.length === 0) parts.push(el('p', { text: 'No server pins its tools.' }));
  else {
    parts.push(
      el(
        'ul',
        { 'aria-labelledby': 'pinning' },
        ...data.pinning.map((server) =>
          el(
            'li',
            {},
            `${server.server}: ${server.approved} tool${server.approved === 1 ? '' : 's'} approved`,
            server.withheld > 0 ? el('span', { class: 'bad', text: `, ${server.withheld} withheld here` }) : '',
          ),
        ),
      ),
    );
  }
  document.getElementById('approvals').replaceChildren(...parts);
}

async function approve(button) {
  const { approve: server, tool, item, digest, approveAll, digests } = button.dataset;
  button.disabled = true;
  const answer =
    approveAll !== undefined
      ? await approvalsCall('POST', '/tool-approvals/approve-all', { server: approveAll, digests: digests.split(' ') })
      : await approvalsCall('POST', '/tool-approvals/approve', { server, digest, ...(tool !== undefined ? { tool } : { item }) });
  await loadApprovals();
  notice(answer.ok ? answer.data.message : (answer.data.error?.message ?? 'Not approved.'), answer.ok ? 'ok' : 'error');
  document.getElementById('approvals-title').focus();
}

// --- Wiring ---------------------------------------------------------------------------

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button') : null;
  if (!target) return;
  if (target.dataset.action !== undefined) void serverAction(target);
  else if (target.dataset.approve !== undefined || target.dataset.approveAll !== undefined) void approve(target);
  else if (target.id === 'reload-approvals') void loadApprovals();
  else if (target.id === 'refresh-overview') void loadOverview();
  else if (target.id === 'add-server') openEditor(undefined);
  else if (target.id === 'refresh') void loadServers();
  else if (target.dataset.edit !== undefined) openEditor(target.dataset.edit);
  else if (target.dataset.duplicate !== undefined) openEditor(target.dataset.duplicate, true);
  else if (target.dataset.tools !== undefined) void showTools(target.dataset.tools);
  else if (target.dataset.remove !== undefined) void remove(target.dataset.remove);
  else if (target.id === 'test-entry') void test();
  else if (target.id === 'save-anyway') void save(undefined, true);
  else if (target.id === 'cancel-entry') {
    document.getElementById('editor').hidden = true;
    document.getElementById('add-server').focus();
  } else if (target.id === 'reload-after-conflict') {
    document.getElementById('editor').hidden = true;
    void loadServers();
  }
});

document.addEventListener('change', (event) => {
  if (!(event.target instanceof HTMLSelectElement) || event.target.id !== 'field-type') return;
  const made = entryFromForm();
  editing.entry = { ...(made?.entry ?? editing.entry), type: event.target.value };
  const name = document.getElementById('field-name').value;
  drawForm();
  document.getElementById('field-name').value = name;
  document.getElementById('field-type').focus();
});

// Each view reads again what it shows (a start, a crash, a call) without a reload of the
// page; not while the operator is inside it, so the focus never jumps.
async function every(ms, box, load) {
  await load();
  const again = () =>
    setTimeout(async () => {
      if (!document.getElementById(box).contains(document.activeElement)) await load();
      again();
    }, ms());
  again();
}

if (view === 'servers') {
  document.getElementById('entry-form').addEventListener('submit', (event) => void save(event));
  schemas = (await call('GET', '/schemas')).data;
  await every(() => REFRESH_MS, 'server-list', loadServers);
} else if (view === 'overview') {
  await every(() => overviewRefreshMs, 'overview', loadOverview);
} else if (view === 'approvals') {
  await loadApprovals();
}
