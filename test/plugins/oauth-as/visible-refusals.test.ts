import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t from 'tap';
import { runHubAdmin } from '../../helpers/admin.js';
import { startStandaloneHub } from '../../helpers/hub.js';

// Issue 32, item 6: a refused request says why in JSON-RPC terms, so that an MCP client
// shows the cause instead of a bare HTTP status. The standalone hub and hub-admin run in
// this process: the refusal is the subject, not either process.

const probes = {
  'server/discover': { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
  initialize: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } },
};

t.test('a token minted for another base URL is refused with a JSON-RPC error naming both URLs', async (t) => {
  const hub = await startStandaloneHub(t);
  const minted = await runHubAdmin({ ...hub.env, BASE_URL: 'http://127.0.0.1:4000' }, 'tokens', 'mint', '--all');
  t.equal(minted.code, 0, minted.stderr);
  const token = minted.stdout.trim();
  const cause = `the token is not valid: the API token is for http://127.0.0.1:4000, and this hub serves ${hub.url}`;

  for (const [method, body] of Object.entries(probes)) {
    const response = await fetch(`${hub.url}/hub`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': method === 'initialize' ? '2025-11-25' : '2026-07-28',
      },
      body: JSON.stringify(body),
    });
    t.equal(response.status, 401, `${method}: 401`);
    t.match(response.headers.get('www-authenticate'), /error="invalid_token"/, 'the OAuth error stays in WWW-Authenticate');
    const answer = (await response.json()) as { jsonrpc?: string; error?: { code: number; message: string; data?: { error?: string } } };
    t.equal(answer.jsonrpc, '2.0', `${method}: a JSON-RPC body`);
    t.equal(answer.error?.message.startsWith(`Unauthorized: ${cause}`), true, `${method}: whose message says why`);
    t.equal(answer.error?.data?.error, 'invalid_token', 'with the OAuth error kept in data');
  }

  // The v2 SDK shows the message where it reports the body (a 2025 client), and keeps the
  // body beside its own text where version negotiation words the error itself (a 2026 client).
  const legacy = new Client({ name: 'legacy', version: '1' });
  const legacyError = await legacy.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/hub`), { requestInit: { headers: { authorization: `Bearer ${token}` } } })).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  t.match(legacyError?.message, cause, 'a 2025-11-25 client shows the cause');
  const modern = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const modernError = await modern.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/hub`), { requestInit: { headers: { authorization: `Bearer ${token}` } } })).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.match(modernError, { data: { text: cause } }, 'a 2026-07-28 client carries it in the error data');
});
