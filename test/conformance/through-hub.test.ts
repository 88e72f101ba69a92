import t from 'tap';
import { runConformanceSuite, type ConformanceRequirements, type ConformanceRun } from '../helpers/conformance.js';
import { CONFORMANCE_FIXTURE, startConformanceFixture } from '../helpers/conformance-fixture.js';
import { startTestHub } from '../helpers/hub.js';
import { HUB_EXCLUSIONS } from './expectations.js';

// The official suite against /<name>/mcp with the conformance fixture as an `http` child
// and as a `stdio` child, beside the same fixture directly: every scenario that passes
// directly passes through the hub, but for the documented exclusions, which follow from
// what each revision carries.
const REQUIREMENT_SETS: ConformanceRequirements[] = ['2025-11-25', '2026-07-28'];
// Six runs of the suite: on a busy machine they outlast the 240 s every other file gets.
t.setTimeout(1_200_000);

function describeFailures(run: ConformanceRun, scenarios: string[]): string {
  return scenarios
    .map((scenario) => {
      const result = run.scenarios.find((candidate) => candidate.scenario === scenario);
      return `${scenario}: ${result?.failures.map((failure) => `${failure.id}: ${failure.message}`).join('; ') ?? 'did not run'}`;
    })
    .join('\n');
}

t.test('the conformance fixture through /<name>/mcp, as an http and as a stdio child', async (t) => {
  const direct = await startConformanceFixture(t);
  const { url } = await startTestHub(t, {
    config: {
      mcpServers: {
        'over-http': { type: 'http', url: direct },
        'over-stdio': { command: process.execPath, args: [CONFORMANCE_FIXTURE] },
      },
      // A stdio child is spoken to on 2025-11-25 unless asked to probe; 2026-only features need the probe.
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  for (const requirements of REQUIREMENT_SETS) {
    await t.test(`requirement set ${requirements}`, async (t) => {
      const baseline = await runConformanceSuite({ url: direct, requirements });
      const excluded = HUB_EXCLUSIONS[requirements];
      for (const child of ['over-http', 'over-stdio']) {
        const run = await runConformanceSuite({ url: `${url}/${child}/mcp`, requirements });
        t.comment(`${requirements} through ${child}: ${run.passed.length} of ${run.scenarios.length} passed in ${(run.durationMs / 1000).toFixed(1)} s (directly: ${baseline.passed.length})`);
        t.notOk(run.timedOut, `${child}: the suite finished within its overall timeout`);
        const lost = baseline.passed.filter((scenario) => !run.passed.includes(scenario));
        const unexplained = lost.filter((scenario) => !(scenario in excluded));
        t.same(unexplained, [], `${child}: every scenario that passes directly passes through the hub, but the exclusions\n${describeFailures(run, unexplained)}`);
        t.same(
          Object.keys(excluded).filter((scenario) => baseline.passed.includes(scenario) && run.passed.includes(scenario)),
          [],
          `${child}: each exclusion the fixture passes directly does fail through the hub (else it is no longer an exclusion)`,
        );
      }
    });
  }
});
