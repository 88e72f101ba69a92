import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startHub } from './helpers.js';

// A process that ended (its input closed) before the hub's first message reached it: the
// write fails with EPIPE before the process's exit is heard. Seen under load as `hub check
// --connect` saying a server that exited at once "did not start within 120 s: write EPIPE".
// The start fails as a child that ended, at once, with how it ended.
const plugin = fileURLToPath(new URL('../../fixtures/plugins/closed-input-type.js', import.meta.url));

t.test('a first message that meets a closed input fails the start as an ended child, with its exit, not as a write error', async (t) => {
  const { hub } = await startHub(t, { config: { plugins: { [plugin]: true }, mcpServers: { closed: { type: 'closed-input' } } }, timings: { failedStartMemoryMs: 0 } });
  const child = hub.children.get('closed');
  if (!child) throw new Error('no child');
  const failure = await child.ensureUp().then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string },
  );
  t.match(failure, { code: 'HUB_ERR_CHILD_START_FAILED', message: /^server "closed" could not start: the process exited with code 1$/ });
  t.notMatch(failure?.message, /EPIPE|did not start within/);
  t.equal(child.status, 'down');
});
