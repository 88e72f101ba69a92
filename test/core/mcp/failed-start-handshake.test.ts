import { join } from 'node:path';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { fixtureEntry, starts, tempDir } from '../children/helpers.js';

// Issue 44, F4: the handshake on /<name>/mcp of a server whose start failed answers that
// failure, as its first request would, on both revisions; the hub invents no identity
// for it. A child that never answers fails the handshake once the wake budget is spent.
// On 2026-07-28 the handshake is server/discover; the SDK client, pinned to that revision,
// reports any refusal of its probe in words of its own, so what the hub answered is read
// off the wire too.

/** Each revision's handshake, sent by hand: what the hub answers it. */
async function handshakeAnswer(url: string, revision: string) {
  return revision === '2026-07-28'
    ? rawRequest(url, revision, 'server/discover')
    : rawRequest(url, revision, 'initialize', { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } });
}

t.test('the handshake of a server that cannot start answers why, on both revisions', async (t) => {
  const directory = await tempDir(t);
  const { url } = await startTestHub(t, {
    config: { mcpServers: { broken: fixtureEntry('exits-at-once', join(directory, 'broken')) } },
    kernel: (hub) => hub.children.configure({ failedStartMemoryMs: 0 }),
  });
  for (const revision of REVISIONS) {
    const answer = await handshakeAnswer(`${url}/broken/mcp`, revision);
    t.notOk(answer.result, `${revision}: no identity is stated`);
    t.match(
      answer.error?.message,
      /^server "broken" could not start: the process exited with code 1 \(stderr: error: cannot open the database/,
      `${revision}: the handshake answers the start's own error`,
    );
    await t.rejects(connectClient(t, `${url}/broken/mcp`, revision), `${revision}: an SDK client's connect fails`);
  }
  await t.rejects(connectClient(t, `${url}/broken/mcp`, '2025-11-25'), /server "broken" could not start: the process exited with code 1/, "2025-11-25: the SDK client's error is the start's");
  t.ok(starts(join(directory, 'broken')).length >= 1, 'the server was started to answer');
});

t.test('the handshake of a server that never answers fails once the wake budget is spent', async (t) => {
  const directory = await tempDir(t);
  const { url } = await startTestHub(t, {
    config: { mcpServers: { silent: fixtureEntry('silent', join(directory, 'silent')) } },
    kernel: (hub) => hub.children.configure({ wakeBudgetMs: 1_000, failedStartMemoryMs: 0 }),
  });
  for (const revision of REVISIONS) {
    const answer = await handshakeAnswer(`${url}/silent/mcp`, revision);
    t.notOk(answer.result, `${revision}: no identity is stated`);
    t.match(answer.error?.message, /^server "silent" did not start within 1 s/, `${revision}: the handshake fails, naming the budget`);
    await t.rejects(connectClient(t, `${url}/silent/mcp`, revision), `${revision}: an SDK client's connect fails`);
  }
});
