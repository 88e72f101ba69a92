import t from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { runAdminCommand } from '../../helpers/admin.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { approve, pkce } from '../oauth-as/browserless.js';
import { authorizationUrl, exchangeCode, registerClient } from '../oauth-as/flows.js';
import { errorOf, operatorSession, PASSWORD, startConsoleHub } from './helpers.js';

/*
 * Issue 52, item 4: the console's tokens API (/console/api/tokens), against a real hub with
 * plugin oauth-as on and real children: a token minted there opens only what it was minted
 * for (checked with v2 SDK clients on both revisions), is listed as `hub-admin tokens list`
 * lists it (the same store and logic), never by its value, shows its last use, and once
 * revoked there is refused; the OAuth clients (/console/api/clients) are listed as
 * `hub-admin clients list` lists them and revoked as `hub-admin clients revoke` does (an
 * access token obtained by the OAuth flow refused after); the API takes the operator session only, never a bearer, and a
 * change needs the CSRF token from the hub's own origin; refusals are JSON with a code.
 *
 * Road x channel: the API is the operator's road; the token's effect is checked on
 * /<name>/mcp (both revisions) and /hub (its servers limit), through the SDK's requests.
 */

const child = () => ({ command: process.execPath, args: [fixture('changing-tools')] });
const config = JSON.stringify({ plugins: { 'map-tools': false }, mcpServers: { alpha: child(), beta: child(), solo: { ...child(), hub: false } } });

interface Minted {
  token: string;
  id: string;
  issuer: string;
  expiresAt: string | null;
  opens: string;
  endpoints: string[];
  snippets: { claudeCode: string; vsCode: string; sdk: string };
}
interface Listed {
  id: string;
  label: string | null;
  issuedAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  resources: string[] | null;
  servers: string[] | null;
  revoked: boolean;
}

t.test('mint a token for one server, use it over MCP, see it listed without its value, revoke it', async (t) => {
  const { url, hub, logs } = await startConsoleHub(t, config);
  const session = await operatorSession(url);
  const minted = await fetch(`${url}/console/api/tokens`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ label: 'laptop', resources: ['alpha'], expiresInDays: 30 }) });
  t.equal(minted.status, 201, 'minted');
  t.equal(minted.headers.get('cache-control'), 'no-store', 'the answer holding the token is never cached');
  const token = (await minted.json()) as Minted;
  t.match(token.token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the token is a JWT');
  t.same(token.endpoints, [`${url}/alpha/mcp`], 'it opens /alpha/mcp');
  t.equal(token.opens, '/alpha/mcp only');
  t.ok(token.expiresAt !== null && Math.abs(Date.parse(token.expiresAt) - Date.now() - 30 * 86400_000) < 3600_000, 'it expires in 30 days');
  t.equal(token.snippets.claudeCode, `claude mcp add --transport http 'alpha' '${url}/alpha/mcp' --header 'Authorization: Bearer ${token.token}'`, 'the Claude Code snippet');
  t.same(JSON.parse(token.snippets.vsCode), { servers: { alpha: { type: 'http', url: `${url}/alpha/mcp`, headers: { Authorization: `Bearer ${token.token}` } } } }, 'the VS Code snippet');
  t.match(token.snippets.sdk, `new StreamableHTTPClientTransport(new URL("${url}/alpha/mcp"), { requestInit: { headers: { Authorization: "Bearer ${token.token}" } } })`, 'the SDK snippet');

  const bearer = { authorization: `Bearer ${token.token}` };
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/alpha/mcp`, revision, bearer);
    t.ok((await client.listTools()).tools.length > 0, `${revision}: the token opens /alpha/mcp`);
    await t.rejects(connectClient(t, `${url}/beta/mcp`, revision, bearer), `${revision}: and not /beta/mcp`);
    await t.rejects(connectClient(t, `${url}/hub`, revision, bearer), `${revision}: nor /hub`);
  }

  const listing = await fetch(`${url}/console/api/tokens`, { headers: { cookie: session.cookie } });
  const text = await listing.text();
  t.notOk(text.includes(token.token) || text.includes(token.token.split('.')[2] ?? '-'), 'the list never holds the token');
  const listed = JSON.parse(text) as { tokens: Listed[]; servers: { name: string; hub: boolean }[] };
  const row = listed.tokens.find((one) => one.id === token.id);
  t.match(row, { label: 'laptop', resources: ['alpha'], servers: null, revoked: false, expiresAt: token.expiresAt }, 'listed with its label, reach and expiry');
  t.ok(row?.lastUsedAt !== null && Date.parse(row?.lastUsedAt ?? '') >= Date.parse(row?.issuedAt ?? ''), 'with its last use');
  t.same(
    listed.servers,
    [
      { name: 'alpha', hub: true },
      { name: 'beta', hub: true },
      { name: 'solo', hub: false },
    ],
    'and the servers a token may open',
  );

  const cli = await runAdminCommand(hub.adminCommands.get('tokens'), ['list']);
  t.match(
    cli.stdout,
    new RegExp(`^${token.id}\\tactive\\t[^\\t]+\\t${token.expiresAt}\\t[0-9T:.-]+Z\\t${url}\\talpha\\t-\\tlaptop$`, 'm'),
    'hub-admin tokens list shows the same token, its last use too',
  );

  const client = await connectClient(t, `${url}/alpha/mcp`, '2026-07-28', bearer);
  const revoked = await fetch(`${url}/console/api/tokens`, { method: 'DELETE', headers: session.headers(), body: JSON.stringify({ id: token.id }) });
  t.same(await revoked.json(), { revoked: token.id }, 'revoked');
  await t.rejects(client.listTools(), 'a client already connected is refused from its next request');
  await t.rejects(connectClient(t, `${url}/alpha/mcp`, '2025-11-25', bearer), 'and a new one');
  const after = (await (await fetch(`${url}/console/api/tokens`, { headers: { cookie: session.cookie } })).json()) as { tokens: Listed[] };
  t.equal(after.tokens.find((one) => one.id === token.id)?.revoked, true, 'listed as revoked');
  t.match((await runAdminCommand(hub.adminCommands.get('tokens'), ['list'])).stdout, `${token.id}\trevoked`, 'hub-admin sees it revoked');

  t.notOk(
    logs.some((line) => line.includes(token.token.split('.')[2] ?? '-')),
    'no log record holds the token',
  );
  const records = logs.map((line) => JSON.parse(line) as { msg: string; tokenId?: string; level: number }).filter((record) => record.tokenId === token.id);
  t.same(
    records.map(({ msg, level }) => [msg, level]),
    [
      [`console: API token ${token.id} minted, opening /alpha/mcp only`, 30],
      [`console: API token ${token.id} revoked`, 30],
    ],
    'the mint and the revocation are logged at info, by id',
  );
});

t.test('a /hub token limited to some servers; every endpoint; refusals name the field and mint nothing', async (t) => {
  const { url } = await startConsoleHub(t, config);
  const session = await operatorSession(url);
  const mint = (body: unknown) => fetch(`${url}/console/api/tokens`, { method: 'POST', headers: session.headers(), body: JSON.stringify(body) });

  const limited = (await (await mint({ resources: ['hub'], servers: ['beta'] })).json()) as Minted;
  t.equal(limited.opens, '/hub (servers beta only) only');
  t.same(limited.endpoints, [`${url}/hub`]);
  const client = await connectClient(t, `${url}/hub`, '2026-07-28', { authorization: `Bearer ${limited.token}` });
  const servers = await client.callTool({ name: 'list_servers', arguments: {} });
  t.match(JSON.stringify(servers), /beta/, 'the /hub caller sees beta');
  t.notMatch(JSON.stringify(servers), /"alpha"|\balpha\b/, 'and not alpha');

  const everything = (await (await mint({ all: true, label: 'ci' })).json()) as Minted;
  t.equal(everything.opens, 'every MCP endpoint (/hub and every /<name>/mcp)');
  t.equal(everything.expiresAt, null, 'no expiry unless asked');
  const both = (await (await mint({ resources: ['beta', 'hub'] })).json()) as Minted;
  t.same(both.endpoints, [`${url}/hub`, `${url}/beta/mcp`], '/hub first, and the snippets use it');
  t.match(both.snippets.claudeCode, `'hub' '${url}/hub'`);

  const count = async () => ((await (await fetch(`${url}/console/api/tokens`, { headers: { cookie: session.cookie } })).json()) as { tokens: unknown[] }).tokens.length;
  const before = await count();
  const refusals: [unknown, number, string, RegExp][] = [
    [{}, 422, 'HUB_ERR_CONSOLE_TOKEN_REFUSED', /say what the token opens: "resources" <name> for each endpoint .* or "all"/],
    [{ resources: [] }, 422, 'HUB_ERR_CONSOLE_TOKEN_REFUSED', /say what the token opens/],
    [{ resources: ['alhpa'] }, 422, 'HUB_ERR_CONSOLE_TOKEN_REFUSED', /no server is named "alhpa" \(configured: alpha, beta, solo\)/],
    [{ all: true, resources: ['alpha'] }, 422, 'HUB_ERR_CONSOLE_TOKEN_REFUSED', /"all" and "resources" exclude each other/],
    [{ resources: ['alpha'], servers: ['beta'] }, 422, 'HUB_ERR_CONSOLE_TOKEN_REFUSED', /"servers" limits what a token reaches through \/hub/],
    [{ resources: ['hub'], servers: ['solo'] }, 422, 'HUB_ERR_CONSOLE_TOKEN_REFUSED', /server "solo" is not offered through \/hub/],
    [{ all: true, expiresInDays: 0 }, 400, 'HUB_ERR_OPERATOR_REQUEST_INVALID', /expiresInDays/],
    [{ all: true, token: 'x' }, 400, 'HUB_ERR_OPERATOR_REQUEST_INVALID', /./],
  ];
  for (const [body, status, code, message] of refusals) {
    const answer = await mint(body);
    t.equal(answer.status, status, JSON.stringify(body));
    t.match(await errorOf(answer), { code, message }, `${JSON.stringify(body)}: ${code}`);
  }
  t.equal(await count(), before, 'nothing was minted');
  const unknown = await fetch(`${url}/console/api/tokens`, { method: 'DELETE', headers: session.headers(), body: JSON.stringify({ id: '00000000-0000-0000-0000-000000000000' }) });
  t.equal(unknown.status, 404);
  t.equal((await errorOf(unknown)).code, 'HUB_ERR_CONSOLE_TOKEN_NOT_FOUND');
});

t.test('the operator session only, never a bearer; a change needs the CSRF token from the hub’s own origin', async (t) => {
  const { url } = await startConsoleHub(t, config);
  const session = await operatorSession(url);
  const minted = (await (await fetch(`${url}/console/api/tokens`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ all: true }) })).json()) as Minted;
  const count = async () => ((await (await fetch(`${url}/console/api/tokens`, { headers: { cookie: session.cookie } })).json()) as { tokens: unknown[] }).tokens.length;

  const bearer = { authorization: `Bearer ${minted.token}` };
  for (const [method, headers, body] of [
    ['GET', bearer, undefined],
    ['GET', { ...bearer, cookie: session.cookie }, undefined],
    ['POST', { ...session.headers(), ...bearer }, JSON.stringify({ all: true })],
    ['DELETE', { ...session.headers(), ...bearer }, JSON.stringify({ id: minted.id })],
    ['GET', {}, undefined],
  ] as const) {
    const answer = await fetch(`${url}/console/api/tokens`, { method, headers, ...(body !== undefined && { body }) });
    t.equal(answer.status, 401, `${method} with ${Object.keys(headers).join(', ') || 'nothing'}: 401`);
    t.equal((await errorOf(answer)).code, 'HUB_ERR_OPERATOR_SESSION_REQUIRED');
  }
  const { 'x-csrf-token': _csrf, ...withoutCsrf } = session.headers();
  for (const [what, headers, code] of [
    ['no CSRF token', withoutCsrf, 'HUB_ERR_OPERATOR_CSRF_INVALID'],
    ['a wrong CSRF token', session.headers({ 'x-csrf-token': 'forged' }), 'HUB_ERR_OPERATOR_CSRF_INVALID'],
    ['another site', session.headers({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), 'HUB_ERR_OPERATOR_FOREIGN_REQUEST'],
  ] as const) {
    const post = await fetch(`${url}/console/api/tokens`, { method: 'POST', headers, body: JSON.stringify({ all: true }) });
    t.equal(post.status, 403, `mint with ${what}: 403`);
    t.equal((await errorOf(post)).code, code);
    const del = await fetch(`${url}/console/api/tokens`, { method: 'DELETE', headers, body: JSON.stringify({ id: minted.id }) });
    t.equal(del.status, 403, `revoke with ${what}: 403`);
  }
  t.equal(await count(), 1, 'nothing minted');
  const byValue = await fetch(`${url}/console/api/tokens`, { method: 'DELETE', headers: session.headers(), body: JSON.stringify({ id: minted.token }) });
  t.equal((await errorOf(byValue)).code, 'HUB_ERR_OPERATOR_REQUEST_INVALID', 'revoking takes an id, never the token itself');
  const still = await connectClient(t, `${url}/alpha/mcp`, '2026-07-28', bearer);
  t.ok((await still.listTools()).tools.length > 0, 'nothing revoked');
});

t.test('without plugin oauth-as the API and the view say how to turn it on', async (t) => {
  const { url } = await startConsoleHub(t, JSON.stringify({ plugins: { 'map-tools': false, 'oauth-as': false }, mcpServers: { alpha: child() } }));
  const session = await operatorSession(url);
  const list = await fetch(`${url}/console/api/tokens`, { headers: { cookie: session.cookie } });
  t.equal(list.status, 409);
  t.match(await errorOf(list), { code: 'HUB_ERR_CONSOLE_TOKENS_UNAVAILABLE', message: /turn plugin oauth-as on/ });
  const mint = await fetch(`${url}/console/api/tokens`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ all: true }) });
  t.equal((await errorOf(mint)).code, 'HUB_ERR_CONSOLE_TOKENS_UNAVAILABLE');
  const page = await (await fetch(`${url}/console/access`, { headers: { cookie: session.cookie } })).text();
  t.match(page, /No plugin issues API tokens in this hub: turn plugin <code>oauth-as<\/code> on/);
  t.notMatch(page, /id="mint-form"/, 'and offers no form');
});

t.test('OAuth clients: listed as hub-admin lists them, revoked with every token they hold', async (t) => {
  const { url, hub, logs } = await startConsoleHub(t, config);
  const session = await operatorSession(url);
  const client = await registerClient(url);
  const { verifier, challenge } = pkce();
  const redirect = await approve(authorizationUrl(url, client.client_id, client.redirect_uri, challenge), PASSWORD);
  const granted = await exchangeCode(url, client, redirect.searchParams.get('code') ?? '', verifier);
  const access = granted.body.access_token ?? '';
  t.ok(access.length > 20, 'an access token by the OAuth flow');
  const mcp = await connectClient(t, `${url}/hub`, '2026-07-28', { authorization: `Bearer ${access}` });
  t.ok((await mcp.listTools()).tools.length > 0, 'it opens /hub');

  const listed = (await (await fetch(`${url}/console/api/clients`, { headers: { cookie: session.cookie } })).json()) as {
    clients: { clientId: string; name: string | null; source: string; redirectUris: string[]; issuedAt: string; tokensRevokedAt: string | null }[];
  };
  t.match(listed.clients, [{ clientId: client.client_id, name: 'Test client', source: 'dynamic', redirectUris: [client.redirect_uri], tokensRevokedAt: null }], 'the client is listed');
  t.ok(Math.abs(Date.parse(listed.clients[0]?.issuedAt ?? '') - Date.now()) < 600_000, 'registered just now (not in 1970)');
  t.notMatch(JSON.stringify(listed), client.client_secret, 'never with its secret');
  t.match((await runAdminCommand(hub.adminCommands.get('clients'), ['list'])).stdout, `${client.client_id}\tdynamic\tTest client`, 'as hub-admin clients list lists it');

  const { 'x-csrf-token': _csrf, ...withoutCsrf } = session.headers();
  const forged = await fetch(`${url}/console/api/clients`, { method: 'DELETE', headers: withoutCsrf, body: JSON.stringify({ clientId: client.client_id }) });
  t.equal((await errorOf(forged)).code, 'HUB_ERR_OPERATOR_CSRF_INVALID', 'no revocation without the CSRF token');
  const bearer = await fetch(`${url}/console/api/clients`, { headers: { cookie: session.cookie, authorization: `Bearer ${access}` } });
  t.equal((await errorOf(bearer)).code, 'HUB_ERR_OPERATOR_SESSION_REQUIRED', 'nor a listing with a bearer');
  t.notOk((await mcp.callTool({ name: 'list_servers', arguments: {} })).isError, 'the token still works');

  const revoked = await fetch(`${url}/console/api/clients`, { method: 'DELETE', headers: session.headers(), body: JSON.stringify({ clientId: client.client_id }) });
  t.same(await revoked.json(), { revoked: client.client_id });
  // A call, not a list: the SDK may answer a list again from its cache.
  await t.rejects(mcp.callTool({ name: 'list_servers', arguments: {} }), 'its access token is refused from the next request');
  const after = (await (await fetch(`${url}/console/api/clients`, { headers: { cookie: session.cookie } })).json()) as { clients: { tokensRevokedAt: string | null }[] };
  t.ok(after.clients[0]?.tokensRevokedAt !== null, 'listed with when its tokens were revoked');
  t.ok(
    logs.some((line) => line.includes(`console: every token of OAuth client ${client.client_id} revoked`)),
    'logged',
  );
  t.notOk(
    logs.some((line) => line.includes(access)),
    'no log record holds the access token',
  );
  const unknown = await fetch(`${url}/console/api/clients`, { method: 'DELETE', headers: session.headers(), body: JSON.stringify({ clientId: 'no-such-client' }) });
  t.equal(unknown.status, 404);
  t.equal((await errorOf(unknown)).code, 'HUB_ERR_CONSOLE_CLIENT_NOT_FOUND');
});
