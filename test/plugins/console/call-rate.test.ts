import t from 'tap';
import { topicsOf } from '../../../core/observe.js';
import type { HubToolCallEvent, ToolCallEvent } from '../../../core/plugin/observe.js';
import { CallRate } from '../../../plugins/console/call-rate.js';

/*
 * Issue 52, item 5: the overview's calls a minute and error rate, counted from the hub's
 * own call-end topics (a hub's identity of their own, so no other test's calls count) on a
 * clock the test moves. The same figures through a real hub and the API are in api.test.
 */

function setUp(start: number) {
  const clock = { now: start };
  const topics = topicsOf({});
  const rate = new CallRate(topics, () => clock.now);
  // Only the outcome is read; the rest of an event is the kernel's to fill.
  const serverCall = (outcome: ToolCallEvent['outcome']) => topics.toolCallEnd.publish({ outcome } as ToolCallEvent);
  const hubCall = (outcome: HubToolCallEvent['outcome']) => topics.hubToolCall.publish({ outcome } as HubToolCallEvent);
  return { clock, rate, serverCall, hubCall };
}

t.test('calls and failures of the last 60 seconds, from both topics; older ones drop out second by second', async (t) => {
  const { clock, rate, serverCall, hubCall } = setUp(1_000_000_500);
  t.same(rate.lastMinute(), { calls: 0, failed: 0, errorRate: null }, 'no call: no error rate');

  serverCall('ok');
  serverCall('tool_error');
  hubCall('ok');
  t.same(rate.lastMinute(), { calls: 3, failed: 1, errorRate: 1 / 3 }, "a server's calls and /hub's own count");

  clock.now += 30_000;
  serverCall('timeout');
  t.same(rate.lastMinute(), { calls: 4, failed: 2, errorRate: 0.5 }, 'thirty seconds on, all four are in the minute');

  clock.now += 30_000;
  t.same(rate.lastMinute(), { calls: 1, failed: 1, errorRate: 1 }, 'sixty seconds after the first three they are gone; the later one stays');

  clock.now += 29_000;
  t.same(rate.lastMinute(), { calls: 1, failed: 1, errorRate: 1 }, 'still there 59 seconds after it');
  clock.now += 1_000;
  t.same(rate.lastMinute(), { calls: 0, failed: 0, errorRate: null }, 'and gone at 60');
});

t.test('after a quiet hour the old buckets count nothing; a closed counter hears no more', async (t) => {
  const { clock, rate, serverCall } = setUp(2_000_000_000);
  for (let i = 0; i < 50; i++) serverCall('ok');
  clock.now += 3_600_000 + 250;
  serverCall('ok');
  t.same(rate.lastMinute(), { calls: 1, failed: 0, errorRate: 0 }, 'only the call after the gap');
  rate.close();
  serverCall('tool_error');
  t.same(rate.lastMinute(), { calls: 1, failed: 0, errorRate: 0 }, 'a call after close is not counted');
});

t.test("another hub's calls are not this one's", async (t) => {
  const { rate } = setUp(3_000_000_000);
  topicsOf({}).toolCallEnd.publish({ outcome: 'ok' } as ToolCallEvent);
  t.same(rate.lastMinute(), { calls: 0, failed: 0, errorRate: null });
});
