import t from 'tap';
import { fetch } from 'undici';
import { startHubBin } from '../../helpers/hub-bin.js';

// Issue 44, F5: a body over the 4 MiB limit is answered 413 with a JSON-RPC error, and
// that answer reaches the client every time: the hub must not close the connection on a
// client still sending (which makes the client's write fail with EPIPE or a reset before
// it reads the answer).

const MIB = 1024 * 1024;

t.test('32 parallel oversized requests each receive the 413 and its JSON-RPC body', async (t) => {
  // The hub as it runs (its 4 MiB body limit), in its own process, without the login in
  // front; a whole request may take long on a busy machine (32 of them upload 200 MiB), and
  // that is not what is tested here.
  const { url } = await startHubBin(t, {
    config: { mcpServers: {}, plugins: { 'map-tools': false, 'oauth-as': false } },
    env: { HUB_PASSWORD: 'correct horse', REQUEST_TIMEOUT_MS: '600000', HEADERS_TIMEOUT_MS: '600000' },
  });
  // Sizes from just over the limit to twice it, each distinct.
  const sizes = Array.from({ length: 32 }, (_unused, index) => Math.round(4.5 * MIB + (index * 3.5 * MIB) / 31));
  const outcomes = await Promise.all(
    sizes.map(async (size) => {
      const body = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(size)}"}}`;
      try {
        const response = await fetch(`${url}/hub/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body,
        });
        return { status: response.status, body: (await response.json()) as { jsonrpc?: string; error?: { code?: number } } | undefined };
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        return { failed: cause?.code ?? cause?.message ?? (error as Error).message };
      }
    }),
  );
  const failed = outcomes.filter((outcome) => 'failed' in outcome);
  t.same(failed, [], 'no request failed on the connection');
  t.same(
    outcomes.map((outcome) => ('status' in outcome ? [outcome.status, outcome.body?.jsonrpc, outcome.body?.error?.code] : undefined)),
    sizes.map(() => [413, '2.0', -32600]),
    'each was answered 413 with a JSON-RPC invalid-request error',
  );
});
