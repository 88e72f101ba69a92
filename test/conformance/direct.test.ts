import t from 'tap';
import { runConformanceSuite, type ConformanceRequirements } from '../helpers/conformance.js';
import { startConformanceFixture } from '../helpers/conformance-fixture.js';
import { DIRECT_FAILURES } from './expectations.js';

// The official suite against the conformance fixture itself, as a real process over
// HTTP on loopback: the baseline a run through the hub is compared with.
const REQUIREMENT_SETS: ConformanceRequirements[] = ['2025-11-25', '2026-07-28'];

t.test('the conformance fixture, directly', async (t) => {
  const url = await startConformanceFixture(t);
  for (const requirements of REQUIREMENT_SETS) {
    await t.test(`requirement set ${requirements}`, async (t) => {
      const run = await runConformanceSuite({ url, requirements });
      t.comment(`${requirements}: ${run.passed.length} of ${run.scenarios.length} scenarios passed in ${(run.durationMs / 1000).toFixed(1)} s`);
      t.notOk(run.timedOut, 'the suite finished within its overall timeout');
      const expected = DIRECT_FAILURES[requirements];
      const unexpected = run.scenarios.filter((result) => !result.passed && !(result.scenario in expected));
      for (const result of unexpected) {
        t.comment(`${result.scenario} failed: ${result.failures.map((failure) => `${failure.id}: ${failure.message}`).join('; ')}`);
      }
      t.same([...run.failed].sort(), Object.keys(expected).sort(), 'exactly the documented scenarios fail');
      const ran = new Set(run.scenarios.map((result) => result.scenario));
      t.same(
        Object.keys(expected).filter((scenario) => !ran.has(scenario)),
        [],
        'every documented failure is still a scenario of the set',
      );
      t.ok(run.scenarios.some((result) => result.scored && result.passed), 'scored scenarios ran and passed');
    });
  }
});
