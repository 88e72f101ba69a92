import t from 'tap';
import { CallCancellation } from '../../../core/children/client/call-cancel.js';

// Issue 42: a plain call's cancellation without an AbortSignal, which behaves as one would.

t.test('listeners hear the cancellation once, in order, and an unsubscribed one does not', async (t) => {
  const cancel = new CallCancellation();
  const heard: string[] = [];
  cancel.onCancel((reason) => heard.push(`first: ${String(reason)}`));
  const stop = cancel.onCancel(() => heard.push('unsubscribed'));
  cancel.onCancel((reason) => heard.push(`third: ${String(reason)}`));
  stop();
  t.equal(cancel.aborted, false, 'not cancelled yet');
  cancel.abort('gave up');
  cancel.abort('again');
  t.same(heard, ['first: gave up', 'third: gave up'], 'once each, with the first reason');
  t.equal(cancel.aborted, true);
  t.equal(cancel.reason, 'gave up');
  const late: unknown[] = [];
  cancel.onCancel((reason) => late.push(reason));
  t.same(late, ['gave up'], 'a listener given once it is cancelled hears it at once');
});

t.test('the signal is made on first read and follows the cancellation, as an AbortController would', async (t) => {
  const before = new CallCancellation();
  const signal = before.signal;
  t.equal(signal.aborted, false);
  t.equal(before.signal, signal, 'one signal, made once');
  const reason = new Error('timed out');
  before.abort(reason);
  t.equal(signal.aborted, true, 'aborted with the call');
  t.equal(signal.reason, reason, 'with its reason');

  const after = new CallCancellation();
  after.abort();
  t.equal(after.signal.aborted, true, 'a signal first read after the cancellation is aborted already');
  t.match(after.signal.reason, { name: 'AbortError' }, "without a reason, an AbortError, as an AbortController's");
  t.equal(after.reason, after.signal.reason, 'the same reason either way');
});

t.test('a first listener removed leaves the others in their order', async (t) => {
  const cancel = new CallCancellation();
  const heard: number[] = [];
  const stopFirst = cancel.onCancel(() => heard.push(1));
  cancel.onCancel(() => heard.push(2));
  stopFirst();
  cancel.onCancel(() => heard.push(3));
  cancel.abort();
  t.same(heard, [2, 3]);
});
