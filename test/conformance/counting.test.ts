import t from 'tap';
import { scenarioResult, tally, type CheckStatus, type ConformanceRun } from '../helpers/conformance.js';

// How the conformance tests count a scenario: the suite calls one passed when no check
// failed, so a scenario whose checks only warned, or were all skipped or informational,
// would count as a pass that tested nothing.
const checks = (...statuses: CheckStatus[]) => statuses.map((status, index) => ({ id: `check-${index}`, name: `Check${index}`, status }));

t.test('a scenario passes only when a check ran and succeeded and none failed or warned', async (t) => {
  const cases: Array<[string, ReturnType<typeof checks> | undefined, string]> = [
    ['checks that succeeded', checks('SUCCESS', 'INFO', 'SKIPPED'), 'passed'],
    ['a warning beside a success', checks('SUCCESS', 'WARNING'), 'warned'],
    ['only warnings', checks('WARNING', 'INFO'), 'warned'],
    ['only information', checks('INFO'), 'untested'],
    ['only skipped checks', checks('SKIPPED', 'INFO'), 'untested'],
    ['no checks at all', checks(), 'untested'],
    ['a failure beside successes and warnings', checks('SUCCESS', 'WARNING', 'FAILURE'), 'failed'],
    ['no result written', undefined, 'failed'],
  ];
  for (const [what, given, outcome] of cases) {
    const result = scenarioResult('scenario', true, given);
    t.equal(result.outcome, outcome, `${what}: ${outcome}`);
    t.equal(result.passed, outcome === 'passed', `${what}: ${outcome === 'passed' ? 'a pass' : 'not a pass'}`);
  }
  const run = { scenarios: cases.map(([, given], index) => scenarioResult(`scenario-${index}`, true, given)) } as ConformanceRun;
  t.same(tally(run), { passed: 1, warned: 5, failed: 2 }, 'the conformance table counts warnings and runs without a check together, apart from passes and failures');
});
