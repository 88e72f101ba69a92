import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { addressKey } from '../../core/limits/address.js';
import { serverLimitOptions } from '../../core/limits/server-options.js';
import { msUntilBelow, slidingEstimate, WindowCounter } from '../../core/limits/window-counter.js';
import { settingsFromEnvironment } from '../../core/config/settings.js';
import { openStore } from '../../core/store/index.js';

t.test('the sliding-window estimate and when it falls below a limit', async (t) => {
  const minute = 60_000;
  t.equal(slidingEstimate({ previous: 0, current: 7, elapsedMs: 30_000, windowMs: minute }), 7);
  t.equal(slidingEstimate({ previous: 10, current: 0, elapsedMs: 15_000, windowMs: minute }), 7.5, 'three quarters of the previous window still overlap');
  t.equal(msUntilBelow(10, { previous: 0, current: 9, elapsedMs: 0, windowMs: minute }), 0, 'below already');
  // 10 * (1 - (t + x) / 60 s) + 4 < 10 once t + x > 24 s.
  t.equal(msUntilBelow(10, { previous: 10, current: 4, elapsedMs: 20_000, windowMs: minute }), 4_001);
  // All 12 in this window: in the next one 12 * (1 - y / 60 s) < 10 once y > 10 s.
  t.equal(msUntilBelow(10, { previous: 0, current: 12, elapsedMs: 50_000, windowMs: minute }), 20_001);
  for (const count of [
    { previous: 30, current: 9, elapsedMs: 1, windowMs: minute },
    { previous: 5, current: 40, elapsedMs: 59_999, windowMs: minute },
  ]) {
    const wait = msUntilBelow(10, count);
    const elapsed = count.elapsedMs + wait;
    const later = elapsed < minute ? { ...count, elapsedMs: elapsed } : { previous: count.current, current: 0, elapsedMs: elapsed - minute, windowMs: minute };
    t.ok(slidingEstimate(later) < 10, 'after the wait the estimate is below the limit');
    const sooner = elapsed - 2 < minute ? { ...count, elapsedMs: elapsed - 2 } : { previous: count.current, current: 0, elapsedMs: elapsed - 2 - minute, windowMs: minute };
    t.ok(slidingEstimate(sooner) >= 10, 'and not before');
  }
});

// The counters' clock, fixed: a second into a minute. The store's TTL runs on the real clock,
// so the instant is in the future, where it prunes nothing the test counts.
const A_SECOND_INTO_A_MINUTE = Date.UTC(2100, 0, 1, 0, 0, 1);

t.test('window counts are shared through the store, within a second, and slide', async (t) => {
  const store = await openStore({ dataPath: await mkdtemp(join(tmpdir(), 'limits-')) });
  t.teardown(() => store.close());
  let now = A_SECOND_INTO_A_MINUTE;
  const clock = () => now;
  // Two replicas of one hub: two counters on one store.
  const first = new WindowCounter(store, 'test', 60_000, { now: clock });
  const second = new WindowCounter(store, 'test', 60_000, { now: clock });

  for (let index = 0; index < 3; index++) first.add('client');
  t.equal((await first.count('client')).current, 3, 'a process sees its own events at once');
  t.equal((await second.count('client')).current, 3, 'another sees them once written (the first count wrote them)');
  second.add('client');
  t.equal((await first.count('client')).current, 3, 'within the second, a process works from its own view');
  now += 1_000;
  t.equal((await second.count('client')).current, 4, 'each second a process writes its events');
  t.equal((await first.count('client')).current, 4, "and reads the others'");
  t.equal((await first.count('other')).current, 0, 'keys are apart');

  now += 60_000;
  const rolled = await first.count('client');
  t.same([rolled.previous, rolled.current, rolled.elapsedMs], [4, 0, 2_000], 'the next window starts empty, the last one still counts');
  t.equal(slidingEstimate(rolled), 4 * (1 - 2_000 / 60_000));
  now += 120_000;
  t.equal(slidingEstimate(await second.count('client')), 0, 'two windows later nothing is left');
});

t.test('with a limit, replicas together run past it by at most 5% of it each', async (t) => {
  const store = await openStore({ dataPath: await mkdtemp(join(tmpdir(), 'limits-')) });
  t.teardown(() => store.close());
  // The clock stands still: no replica looks at the store because a second has passed.
  const now = A_SECOND_INTO_A_MINUTE;
  const limit = 100;
  const replicas = Array.from({ length: 3 }, () => new WindowCounter(store, 'limited', 60_000, { limit, now: () => now }));
  let accepted = 0;
  const refusedBy = new Set<number>();
  for (let call = 0; call < 3 * limit; call++) {
    const replica = call % 3;
    const counter = replicas[replica] as WindowCounter;
    if (slidingEstimate(await counter.count('client')) >= limit) refusedBy.add(replica);
    else {
      counter.add('client');
      accepted++;
    }
  }
  t.ok(accepted >= limit && accepted <= limit + 2 * 5, `${accepted} accepted: the limit, plus at most 5 for each other replica`);
  t.same([...refusedBy].sort(), [0, 1, 2], 'every replica refuses in the end');
});

t.test('limit settings: defaults, and a malformed value stops the start naming its variable', async (t) => {
  t.match(settingsFromEnvironment({}), {
    clientCallsPerMinute: 1200,
    clientMaxConcurrent: 32,
    clientMaxStreams: 16,
    maxConnections: 1024,
    maxConnectionsPerAddress: 128,
    requestTimeoutMs: 30_000,
    headersTimeoutMs: 10_000,
    keepAliveTimeoutMs: 72_000,
    trustedProxies: [],
  });
  const set = settingsFromEnvironment({ CLIENT_CALLS_PER_MINUTE: ' 60 ', REQUEST_TIMEOUT_MS: '5000', TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,loopback,::1' });
  t.equal(set.clientCallsPerMinute, 60);
  t.equal(set.headersTimeoutMs, 5000, "by default the headers come within the whole request's time");
  t.same(set.trustedProxies, ['10.0.0.1', '192.168.0.0/16', 'loopback', '::1']);
  for (const [name, value] of [
    ['CLIENT_CALLS_PER_MINUTE', 'many'],
    ['CLIENT_MAX_CONCURRENT', '0'],
    ['CLIENT_MAX_STREAMS', '2.5'],
    ['MAX_CONNECTIONS', '-1'],
    ['MAX_CONNECTIONS_PER_ADDRESS', '0'],
    ['REQUEST_TIMEOUT_MS', '1e3'],
    ['HEADERS_TIMEOUT_MS', 'soon'],
    ['KEEP_ALIVE_TIMEOUT_MS', 'forever'],
  ] as const) {
    t.throws(() => settingsFromEnvironment({ [name]: value }), { name: 'StartupError', code: 'HUB_ERR_SETTING_INVALID', message: `${name}: expected a whole number of at least 1 (got "${value}")` });
  }
  t.throws(() => settingsFromEnvironment({ TRUSTED_PROXIES: '10.0.0.1,proxy.example' }), {
    name: 'StartupError',
    code: 'HUB_ERR_SETTING_INVALID',
    message: /^TRUSTED_PROXIES: expected addresses or CIDR ranges.*"proxy.example"/,
  });
});

t.test('the server options follow the settings', async (t) => {
  const options = serverLimitOptions(settingsFromEnvironment({ REQUEST_TIMEOUT_MS: '20000', HEADERS_TIMEOUT_MS: '4000', KEEP_ALIVE_TIMEOUT_MS: '61000', TRUSTED_PROXIES: '10.0.0.0/8' }));
  t.same(options, {
    requestTimeout: 20_000,
    keepAliveTimeout: 61_000,
    trustProxy: ['10.0.0.0/8'],
    http: { headersTimeout: 4000, requestTimeout: 20_000, connectionsCheckingInterval: 1000 },
  });
  t.equal(serverLimitOptions(settingsFromEnvironment({ REQUEST_TIMEOUT_MS: '2000', HEADERS_TIMEOUT_MS: '9000' })).http.headersTimeout, 2000, 'the headers never get longer than the whole request');
  t.equal(serverLimitOptions(settingsFromEnvironment({})).trustProxy, false, 'no proxy is trusted unless named');
});

t.test('addresses are limited as hosts: IPv4 as is, IPv6 by its /64', async (t) => {
  t.equal(addressKey('203.0.113.7'), '203.0.113.7');
  t.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7', 'an IPv4-mapped address is its IPv4 address');
  t.equal(addressKey('2001:db8:1:2::5'), '2001:db8:1:2::/64');
  t.equal(addressKey('2001:db8:1:2:ffff::9'), addressKey('2001:db8:1:2::1'), 'one /64, one key');
  t.not(addressKey('2001:db8:1:3::1'), addressKey('2001:db8:1:2::1'));
});
