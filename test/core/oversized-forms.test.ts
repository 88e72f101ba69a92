import t from 'tap';
import { fetch } from 'undici';
import { startHubBin } from '../helpers/hub-bin.js';

// Issue 54, item 9: a body over the limit on the token endpoint and the login form is
// answered 413 every time, as on the MCP endpoints (test/core/mcp/oversized-bodies.test.ts),
// never with a connection closed under the client still sending.

const MIB = 1024 * 1024;

t.test('16 parallel 5 MiB bodies on /token and on /login each receive the 413', async (t) => {
  const hub = await startHubBin(t, {
    config: { mcpServers: {}, plugins: { 'map-tools': false } },
    env: { HUB_PASSWORD: 'correct horse', REQUEST_TIMEOUT_MS: '600000', HEADERS_TIMEOUT_MS: '600000' },
  });
  for (const path of ['/token', '/login']) {
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, async (_unused, index) => {
        const body = `grant_type=authorization_code&code=${'x'.repeat(5 * MIB + index * 1024)}`;
        try {
          const response = await fetch(`${hub.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: hub.url }, body });
          await response.arrayBuffer();
          return response.status;
        } catch (error) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          return cause?.code ?? cause?.message ?? (error as Error).message;
        }
      }),
    );
    t.same(
      outcomes,
      outcomes.map(() => 413),
      `${path}: every request answered 413, none lost on the connection`,
    );
  }
});
