import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT, type JWK } from 'jose';
import t, { type Test } from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { runAdminCommand } from '../../helpers/admin.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { metaError, structuredMeta } from '../meta-tools/helpers.js';
import { approve, pkce } from './browserless.js';
import { authorizationUrl, exchangeCode, PASSWORD, registerClient } from './flows.js';
import { openDetachedHub } from '../../../core/detached.js';
import { openStore } from '../../../core/store/index.js';
import { collections } from '../../../plugins/oauth-as/records.js';

// Issue 30, item 1: API tokens bound to resources, /hub tokens limited to servers, and
// tokens from before either kept working as tokens for everything. The standalone hub, and
// the tokens command against its config and store as hub-admin builds it, run in this
// process: neither process is the subject (hub-admin's is admin-tokens.test.ts's).

const child = () => ({ command: process.execPath, args: [fixture('changing-tools')] });

async function leastPrivilegeHub(t: Test) {
  const hub = await startStandaloneHub(
    t,
    { HUB_PASSWORD: PASSWORD, MCP_DIAGNOSTICS: 'true' },
    { config: { mcpServers: { alpha: child(), beta: child(), gamma: { ...child(), hub: false } }, plugins: { 'map-tools': false } } },
  );
  const detached = await openDetachedHub(hub.env);
  t.teardown(() => detached.app.close());
  const admin = (...args: string[]) => runAdminCommand(detached.hub.adminCommands.get(args[0] ?? ''), args.slice(1));
  /** Mints a token, asserting in `t` that hub-admin succeeded. */
  const mint = async (t: Test, ...args: string[]) => {
    const minted = await admin('tokens', 'mint', ...args);
    t.equal(minted.code, 0, `tokens mint ${args.join(' ')}: ${minted.stderr}`);
    return { token: minted.stdout.trim(), id: /token id (\S+),/.exec(minted.stderr)?.[1] ?? '', stderr: minted.stderr };
  };
  return { ...hub, admin, mint };
}

/** A bare ping with `token`: the status and the refusal's WWW-Authenticate and description. */
async function answer(url: string, token: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  // A refusal is a JSON-RPC error carrying the bearer check's OAuth error in `data`.
  const body = response.ok ? (await response.body?.cancel(), {}) : ((await response.json()) as { error?: { data?: { error_description?: string } } });
  const challenge = response.headers.get('www-authenticate') ?? '';
  return {
    status: response.status,
    challenge,
    withoutDescription: challenge.replace(/, error_description="[^"]*"/, ''),
    description: 'error' in body ? body.error?.data?.error_description : undefined,
  };
}

// One hub serves every subtest, in order: each mints tokens of its own and asserts only on
// those; the first, which asserts that nothing was minted, runs before any mint.
const hub = await leastPrivilegeHub(t);

t.test('a mint must say what the token opens; names are checked against the config', async (t) => {
  const refusals: [string[], RegExp][] = [
    [[], /say what the token opens: --resource <name> .*or --all/],
    [['--all', '--resource', 'alpha'], /--all and --resource exclude each other/],
    [['--resource', 'alpha', '--servers', 'alpha'], /--servers limits what a token reaches through \/hub: use it with --resource hub/],
    [['--all', '--servers', 'alpha'], /use it with --resource hub/],
    [['--resource', 'alhpa'], /no server is named "alhpa" \(configured: alpha, beta, gamma\)/],
    [['--resource', 'hub', '--servers', 'alpha,betta'], /no server is named "betta"/],
    [['--resource', 'hub', '--servers', 'gamma'], /server "gamma" is not offered through \/hub \(hub: false\): open its own endpoint with --resource gamma/],
  ];
  for (const [args, message] of refusals) {
    const refused = await hub.admin('tokens', 'mint', ...args);
    t.equal(refused.code, 2, `refused: ${args.join(' ') || '(nothing)'}`);
    t.match(refused.stderr, message);
    t.match(refused.stderr, /usage: hub-admin tokens mint \(--resource <hub\|server>/, 'with the usage');
    t.equal(refused.stdout, '', 'and no token');
  }
  t.equal((await hub.admin('tokens', 'list')).stdout, 'ID\tSTATUS\tISSUED\tEXPIRES\tLAST USED\tBASE URL\tRESOURCES\tSERVERS\tLABEL\n', 'nothing was minted');
});

t.test('a token bound to one server is refused on another server and on /hub, as an OAuth token is', async (t) => {
  const alpha = await hub.mint(t, '--resource', 'alpha', '--label', 'ci');
  t.match(alpha.stderr, 'opens /alpha/mcp only');

  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${hub.url}/alpha/mcp`, revision, { authorization: `Bearer ${alpha.token}` });
    const result = await client.callTool({ name: 'echo', arguments: {} });
    t.same(result.content, [{ type: 'text', text: 'ok' }], `${revision}: accepted on its own server`);
  }

  // An OAuth access token issued for /alpha/mcp, for the refusal to compare with.
  const client = await registerClient(hub.url);
  const { verifier, challenge } = pkce();
  const redirect = await approve(authorizationUrl(hub.url, client.client_id, client.redirect_uri, challenge, { resource: `${hub.url}/alpha/mcp` }), PASSWORD);
  const oauth = (await exchangeCode(hub.url, client, redirect.searchParams.get('code') ?? '', verifier)).body.access_token ?? '';
  t.equal((await answer(`${hub.url}/alpha/mcp`, oauth)).status, 200, 'the OAuth token opens /alpha/mcp');

  for (const path of ['/beta/mcp', '/hub', '/gamma/mcp']) {
    const apiRefusal = await answer(`${hub.url}${path}`, alpha.token);
    const oauthRefusal = await answer(`${hub.url}${path}`, oauth);
    t.equal(apiRefusal.status, 401, `${path}: refused`);
    t.equal(apiRefusal.status, oauthRefusal.status, `${path}: with the status an OAuth token for another resource gets`);
    t.equal(apiRefusal.withoutDescription, oauthRefusal.withoutDescription, `${path}: and the same WWW-Authenticate`);
    t.match(apiRefusal.challenge, `resource_metadata="${hub.url}/.well-known/oauth-protected-resource${path}", error="invalid_token"`);
    t.equal(apiRefusal.description, `the token is not valid for this resource (API token ${alpha.id} is for ${hub.url}/alpha/mcp)`, 'saying what the token is for');
    t.equal(oauthRefusal.description, 'the token is not valid for this resource');
  }

  const both = await hub.mint(t, '--resource', 'alpha', '--resource', 'gamma');
  t.equal((await answer(`${hub.url}/gamma/mcp`, both.token)).status, 200, 'a repeated --resource opens each');
  t.equal((await answer(`${hub.url}/beta/mcp`, both.token)).status, 401, 'and nothing else');
  const everything = await hub.mint(t, '--all');
  t.match(everything.stderr, 'opens every MCP endpoint');
  for (const path of ['/alpha/mcp', '/beta/mcp', '/gamma/mcp', '/hub']) t.equal((await answer(`${hub.url}${path}`, everything.token)).status, 200, `--all opens ${path}`);
});

t.test('a /hub token limited to one server lists, describes and calls only that one', async (t) => {
  const limited = await hub.mint(t, '--resource', 'hub', '--servers', 'alpha');
  t.match(limited.stderr, 'opens /hub (servers alpha only) only');
  t.equal((await answer(`${hub.url}/alpha/mcp`, limited.token)).status, 401, "a /hub token does not open the server's own endpoint");

  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${hub.url}/hub`, revision, { authorization: `Bearer ${limited.token}` });
    const listed = await structuredMeta(t, client, 'list_servers');
    t.same(
      (listed.servers as { name: string }[]).map((server) => server.name),
      ['alpha'],
      `${revision}: list_servers shows only alpha`,
    );
    const tools = await structuredMeta(t, client, 'list_tools', { server: 'alpha' });
    t.ok(
      (tools.tools as { name: string }[]).some((tool) => tool.name === 'echo'),
      `${revision}: its tools are listed`,
    );
    const called = await client.callTool({ name: 'call_tool', arguments: { server: 'alpha', tool: 'echo' } });
    t.same(called.content, [{ type: 'text', text: 'ok' }], `${revision}: and called`);

    const unknown = 'Unknown server: "beta". Call list_servers for the configured servers.';
    t.equal(await metaError(client, 'list_tools', { server: 'beta' }), unknown, `${revision}: list_tools of another server: as if it did not exist`);
    t.equal(await metaError(client, 'get_tool_schema', { server: 'beta', tool: 'echo' }), unknown, `${revision}: get_tool_schema`);
    t.equal(await metaError(client, 'call_tool', { server: 'beta', tool: 'echo' }), unknown, `${revision}: call_tool`);
    t.equal(await metaError(client, 'wake_server', { server: 'beta' }), unknown, `${revision}: wake_server`);
    t.equal(await metaError(client, 'sleep_server', { server: 'beta' }), unknown, `${revision}: sleep_server`);
    t.equal(await metaError(client, 'sleep_server', { server: 'gamma' }), unknown.replaceAll('beta', 'gamma'), `${revision}: nor a server kept out of /hub`);

    const report = await structuredMeta(t, client, 'describe_connection', {});
    t.same((report.caller as { servers?: string[] }).servers, ['alpha'], `${revision}: describe_connection says which servers the token reaches`);
    t.match(await metaError(client, 'describe_connection', { server: 'beta' }), /^Unknown server: "beta"/, `${revision}: and describes no other`);
  }

  const unlimited = await hub.mint(t, '--resource', 'hub');
  const client = await connectClient(t, `${hub.url}/hub`, '2026-07-28', { authorization: `Bearer ${unlimited.token}` });
  t.same(
    ((await structuredMeta(t, client, 'list_servers')).servers as { name: string }[]).map((server) => server.name),
    ['alpha', 'beta', 'gamma'],
    'a /hub token without --servers reaches every server',
  );
  t.notOk('servers' in ((await structuredMeta(t, client, 'describe_connection', {})).caller as object), 'and describe_connection names no limit');
});

t.test('tokens list shows what each token opens; a token minted before resources existed opens everything', async (t) => {
  const alpha = await hub.mint(t, '--resource', 'alpha');
  const limited = await hub.mint(t, '--resource', 'hub', '--resource', 'beta', '--servers', 'alpha,beta', '--label', 'agent');
  const everything = await hub.mint(t, '--all');

  // A token as the hub minted them before this change: its signing key, its claims, its record.
  const store = await openStore({ dataPath: hub.dataPath });
  const c = collections(store);
  const key = await c.keys.findOne({ _id: 'api-token-signing' });
  const id = randomUUID();
  const old = await new SignJWT({ label: 'from before' })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'hub-api+jwt' })
    .setIssuer(hub.url)
    .setAudience(`${hub.url}#api`)
    .setSubject('hub')
    .setJti(id)
    .setIssuedAt()
    .sign(await importJWK(key?.privateJwk as JWK, 'EdDSA'));
  await c.apiTokens.insertOne({ _id: id, label: 'from before', issuer: hub.url, issuedAt: new Date() });
  await store.close();

  for (const path of ['/alpha/mcp', '/beta/mcp', '/gamma/mcp', '/hub']) t.equal((await answer(`${hub.url}${path}`, old)).status, 200, `the old token still opens ${path}`);
  const client = await connectClient(t, `${hub.url}/hub`, '2025-11-25', { authorization: `Bearer ${old}` });
  t.equal(((await structuredMeta(t, client, 'list_servers')).servers as unknown[]).length, 3, 'and reaches every server through /hub');

  const listed = await hub.admin('tokens', 'list');
  t.equal(listed.code, 0, listed.stderr);
  const rows = new Map(
    listed.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
      .map((row) => [row[0], row]),
  );
  t.match(rows.get(alpha.id), [alpha.id, 'active', /^\d{4}-/, 'never', /^(never|\d{4}-)/, hub.url, 'alpha', '-', ''], 'a server token: its server, and no /hub');
  t.match(rows.get(limited.id), [limited.id, 'active', /^\d{4}-/, 'never', /^(never|\d{4}-)/, hub.url, 'hub,beta', 'alpha,beta', 'agent'], 'a /hub token limited to servers');
  t.match(rows.get(everything.id), [everything.id, 'active', /^\d{4}-/, 'never', /^(never|\d{4}-)/, hub.url, 'all', 'all', ''], '--all');
  t.match(rows.get(id), [id, 'active', /^\d{4}-/, 'never', /^(never|\d{4}-)/, hub.url, 'all', 'all', 'from before'], 'the old token is listed as --all');
});
