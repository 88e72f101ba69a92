import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { waitFor } from '../core/children/helpers.js';
import { describeOutcomes, runConformanceSuite, tally, type ConformanceRequirements, type ConformanceRun } from '../helpers/conformance.js';
import { conformanceStdioEntry, startConformanceFixture } from '../helpers/conformance-fixture.js';
import { startTestHub } from '../helpers/hub.js';
import type { FixtureVariant } from '../fixtures/servers/conformance-server.js';
import { HUB_EXCLUSIONS, hubExclusions, NOT_PASSED_DIRECTLY } from './expectations.js';

const REQUIREMENT_SETS: ConformanceRequirements[] = ['2025-11-25', '2026-07-28'];
const CHILDREN = ['over-http', 'over-stdio'] as const;

/** Passes / warnings / failures, as the conformance table's cells (docs/reference/mcp-revisions.md) state them. */
function cell(run: ConformanceRun): string {
  const { passed, warned, failed } = tally(run);
  return `${passed} / ${warned} / ${failed}`;
}

/**
 * The official suite against one variant of the conformance fixture directly (a process
 * serving HTTP), and through `/<name>/mcp` with that fixture as an `http` and as a `stdio`
 * child. A scenario passes only when a check ran and none failed or warned. Directly,
 * exactly the scenarios `NOT_PASSED_DIRECTLY` names do not pass; through the hub, every
 * scenario that passes directly passes, but for `HUB_EXCLUSIONS`, which follow from what
 * each revision carries, and each of those does not. Each requirement set's line of the
 * conformance table of docs/reference/mcp-revisions.md is printed as a comment.
 */
export async function conformanceThroughHub(t: Test, variant: FixtureVariant): Promise<void> {
  const direct = await startConformanceFixture(t, variant);
  const { url } = await startTestHub(t, {
    config: {
      mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry(variant) },
      // A stdio child is spoken to on 2025-11-25 unless asked to probe; 2026-only features need the probe.
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  for (const requirements of REQUIREMENT_SETS) {
    await t.test(`requirement set ${requirements}`, async (t) => {
      const baseline = await runConformanceSuite({ url: direct, requirements });
      t.notOk(baseline.timedOut, 'directly: the suite finished within its overall timeout');
      const expected = NOT_PASSED_DIRECTLY[requirements];
      const unexpected = baseline.failed.filter((scenario) => !(scenario in expected));
      t.same(unexpected, [], `directly: every scenario that does not pass is named, with a reason\n${describeOutcomes(baseline, unexpected)}`);
      t.same(
        Object.keys(expected).filter((scenario) => !baseline.failed.includes(scenario)),
        [],
        'directly: every scenario named does not pass (else it is no longer expected to)',
      );
      t.ok(baseline.scenarios.some((result) => result.scored && result.passed), 'scored scenarios ran and passed');

      const excluded = hubExclusions(requirements, variant);
      const cells = [cell(baseline)];
      for (const child of CHILDREN) {
        const run = await runConformanceSuite({ url: `${url}/${child}/mcp`, requirements });
        cells.push(cell(run));
        t.notOk(run.timedOut, `${child}: the suite finished within its overall timeout`);
        const lost = baseline.passed.filter((scenario) => !run.passed.includes(scenario));
        const unexplained = lost.filter((scenario) => !(scenario in excluded));
        t.same(unexplained, [], `${child}: every scenario that passes directly passes through the hub, but the exclusions\n${describeOutcomes(run, unexplained)}`);
        t.same(
          Object.keys(excluded).filter((scenario) => baseline.passed.includes(scenario) && run.passed.includes(scenario)),
          [],
          `${child}: each exclusion the fixture passes directly does not pass through the hub (else it is no longer an exclusion)`,
        );
      }
      t.comment(`README | ${variant} | ${requirements} | ${cells.join(' | ')} |`);
    });
  }
}

/**
 * The body timeout of the aged hub's http child: five minutes in production, shortened so a
 * test outlives it, yet long enough that no answer of the suite's scenarios (an event
 * stream whose next event waits on a busy machine) is cut by it.
 */
const AGED_BODY_TIMEOUT_MS = 2000;

/** How many listens the fixture (LISTEN_CONTROL=1) opened and has open; `end` cuts the open ones first. */
async function fixtureListens(mcpUrl: string, what: 'end' | 'accept' = 'accept'): Promise<{ opened: number; open: number }> {
  return (await (await fetch(new URL(`/listens/${what}`, mcpUrl), { method: 'POST' })).json()) as { opened: number; open: number };
}

/**
 * The suite through an `http` child of a hub "up for ten minutes" (issue 55.1): the body
 * timeout that once ended the hub's listen after five quiet minutes is shortened and
 * outlived several times over, and the listen is cut once, as a proxy or a restart of the
 * child would; then every scenario that passes directly passes through the hub, but the
 * exclusions, as on a fresh hub.
 */
export async function conformanceOnAgedHub(t: Test): Promise<void> {
  const direct = await startConformanceFixture(t, 'standard', 'http', { LISTEN_CONTROL: '1' });
  const { url } = await startTestHub(t, {
    config: { mcpServers: { 'over-http': { type: 'http', url: direct } }, plugins: { 'lifecycle-remote': { bodyTimeoutMs: AGED_BODY_TIMEOUT_MS } } },
    kernel: (created) => created.children.configure({ backoffBaseMs: 50, backoffMaxMs: 200 }),
  });
  await waitFor("the hub's listen to the child", async () => (await fixtureListens(direct)).open === 1);
  await sleep(AGED_BODY_TIMEOUT_MS * 3);
  t.same(await fixtureListens(direct), { opened: 1, open: 1 }, 'the listen outlived the body timeout');
  await fixtureListens(direct, 'end');
  await waitFor('the hub to reopen the cut listen', async () => (await fixtureListens(direct)).open === 1);
  for (const requirements of REQUIREMENT_SETS) {
    await t.test(`requirement set ${requirements}`, async (t) => {
      const baseline = await runConformanceSuite({ url: direct, requirements });
      const run = await runConformanceSuite({ url: `${url}/over-http/mcp`, requirements });
      t.notOk(run.timedOut, 'the suite finished within its overall timeout');
      const lost = baseline.passed.filter((scenario) => !run.passed.includes(scenario));
      const unexplained = lost.filter((scenario) => !(scenario in HUB_EXCLUSIONS[requirements]));
      t.same(unexplained, [], `every scenario that passes directly passes through the aged hub, but the exclusions\n${describeOutcomes(run, unexplained)}`);
      t.comment(`aged hub | ${requirements} | direct ${cell(baseline)} | over-http ${cell(run)} |`);
    });
  }
}
