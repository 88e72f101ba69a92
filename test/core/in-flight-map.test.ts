import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { collectionsIn, promotedBytes } from '../../bench/gc-trace.js';
import { InFlightMap } from '../../core/in-flight-map.js';

// Issue 42: what a busy hub keeps per call in flight is gone with the call, for V8's minor
// collections too. A plain Map's replaced hash tables, once in the old generation, kept
// finished calls alive until the next full collection: 3,300 bytes promoted a call.

t.test('an in-flight map keeps, replaces, removes and hands over its entries', async (t) => {
  const calls = new InFlightMap<string, { id: string }>();
  const first = { id: 'first' };
  calls.set('a', first);
  calls.set('b', { id: 'second' });
  t.equal(calls.size, 2);
  t.equal(calls.get('a'), first);
  t.equal(calls.has('b'), true);
  calls.set('a', { id: 'replaced' });
  t.same(calls.get('a'), { id: 'replaced' }, 'a second set replaces the value');
  t.equal(calls.size, 2);
  t.equal(calls.delete('b'), true);
  t.equal(calls.delete('b'), false, 'an entry is removed once');
  t.equal(calls.get('b'), undefined);
  t.equal(calls.has('b'), false);
  t.same(calls.takeAll(), [{ id: 'replaced' }]);
  t.equal(calls.size, 0, 'taking all empties the map');
  t.same(calls.takeAll(), []);
});

const churn = fileURLToPath(new URL('../fixtures/process/in-flight-churn.js', import.meta.url));

/** Bytes V8's minor collections promoted while the fixture ran with `kind` of registry. */
async function promoted(kind: 'plain' | 'in-flight'): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--trace-gc-nvp', churn, kind], { maxBuffer: 64 * 1024 * 1024 });
  return promotedBytes(collectionsIn(stdout));
}

t.test('finished calls do not outlive minor collections through the registry', async (t) => {
  const plain = await promoted('plain');
  const inFlight = await promoted('in-flight');
  t.comment(`promoted with a plain Map ${(plain / 1048576).toFixed(1)} MB, with an InFlightMap ${(inFlight / 1048576).toFixed(1)} MB`);
  // 160,000 calls of about 4 KB each pass through; a plain Map promoted most of them.
  t.ok(plain > 100 * 1048576, 'the premise: an old Map keeps finished calls alive through minor collections');
  t.ok(inFlight * 20 < plain, 'an InFlightMap keeps at most a twentieth of that');
});
