import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { OperatorSessions, SESSION_COOKIE } from '../../../core/operator/sessions.js';
import { openStore } from '../../../core/store/index.js';

// The session's lifetime is a policy on a clock the test holds: its expiry is the login
// plus the lifetime, exactly, and a session is refused from that instant on, whether or
// not the store has pruned it yet.
t.test('a session expires its lifetime after the login, on the clock it is given', async (t) => {
  const store = await openStore({ dataPath: await mkdtemp(join(tmpdir(), 'sessions-')) });
  t.teardown(() => store.close());
  let now = Date.UTC(2100, 0, 1);
  const sessions = new OperatorSessions(store, 300, { path: '/' }, () => now);
  const app = Fastify({ logger: false });
  await app.register(cookie);
  app.post('/login', async (request, reply) => {
    await sessions.start(request, reply);
    return {};
  });
  app.get('/live', async (request) => ({ live: await sessions.live(request) }));
  t.teardown(() => app.close());

  const login = await app.inject({ method: 'POST', url: '/login' });
  const session = login.cookies.find((sent) => sent.name === SESSION_COOKIE);
  t.equal(session?.maxAge, 300, 'the cookie lasts the lifetime');
  const records = await store.collection<{ _id: string; expiresAt: Date }>('operator-sessions').find({});
  t.same(
    records.map((record) => record.expiresAt.getTime()),
    [Date.UTC(2100, 0, 1) + 300_000],
    'the store keeps login + lifetime',
  );

  const live = async () => (await app.inject({ method: 'GET', url: '/live', cookies: { [SESSION_COOKIE]: session?.value ?? '' } })).json<{ live: boolean }>().live;
  now += 300_000 - 1;
  t.equal(await live(), true, 'live until the last millisecond of its lifetime');
  now += 1;
  t.equal(await live(), false, 'refused from its expiry on');
});
