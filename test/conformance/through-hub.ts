import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { waitFor } from '../core/children/helpers.js';
import { describeOutcomes, runConformanceSuite, tally, type ConformanceRequirements, type ConformanceRun } from '../helpers/conformance.js';
import { conformanceStdioEntry, startConformanceFixture } from '../helpers/conformance-fixture.js';
import { startTestHub } from '../helpers/hub.js';
import type { FixtureVariant } from '../fixtures/servers/conformance-server.js';
import { hubExclusions, NOT_PASSED_DIRECTLY } from './expectations.js';

const REQUIREMENT_SETS: ConformanceRequirements[] = ['2025-11-25', '2026-07-28'];
const CHILDREN = ['over-http', 'over-stdio'] as const;

/** Passes / warnings / failures, as the conformance table's cells (docs/reference/mcp-revisions.md) state them. */
function cell(run: ConformanceRun): string {
  const { passed, warned, failed } = tally(run);
  return `${passed} / ${warned} / ${failed}`;
}

/**
 * What a run through the hub must come out as: exactly the requirement set's planned
 * scenarios pass, but those the fixture does not pass itself (`NOT_PASSED_DIRECTLY`) and
 * those the hub does not carry for that fixture (`hubExclusions`). Pinned rather than measured against a run
 * of the suite on the fixture directly each time (issue 59): that run tested only the
 * fixture, and these lists are what it used to find; a fixture or hub change that makes one
 * of them pass, or another one fail, fails here, naming the scenario.
 */
function expectPinned(t: Test, run: ConformanceRun, road: string, variant: FixtureVariant): void {
  const { requirements } = run;
  const notCarried = { ...NOT_PASSED_DIRECTLY[requirements], ...hubExclusions(requirements, variant) };
  t.notOk(run.timedOut, `${road}: the suite finished within its overall timeout`);
  const expected = run.scenarios.map((result) => result.scenario).filter((scenario) => !(scenario in notCarried));
  const missing = expected.filter((scenario) => !run.passed.includes(scenario));
  t.same(missing, [], `${road}: every planned scenario passes but the fixture's own and the hub's exclusions, each named with a reason\n${describeOutcomes(run, missing)}`);
  t.same(
    run.passed.filter((scenario) => scenario in notCarried),
    [],
    `${road}: no scenario named as not passed passes (else it is no longer expected not to)`,
  );
  t.ok(
    run.scenarios.some((result) => result.scored && result.passed),
    `${road}: scored scenarios ran and passed`,
  );
}

/**
 * The official suite through `/<name>/mcp` against one variant of the conformance fixture,
 * as an `http` child (the fixture a process serving HTTP) and as a `stdio` child, once per
 * requirement set and road, against the pinned expectations (`expectPinned`). A scenario
 * passes only when a check ran and none failed or warned. Each requirement set's line of
 * the conformance table of docs/reference/mcp-revisions.md is printed as a comment.
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
      const cells: string[] = [];
      for (const child of CHILDREN) {
        const run = await runConformanceSuite({ url: `${url}/${child}/mcp`, requirements });
        cells.push(cell(run));
        expectPinned(t, run, child, variant);
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
 * child would; then the suite comes out as pinned (`expectPinned`), as on a fresh hub.
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
      const run = await runConformanceSuite({ url: `${url}/over-http/mcp`, requirements });
      expectPinned(t, run, 'over-http on the aged hub', 'standard');
      t.comment(`aged hub | ${requirements} | over-http ${cell(run)} |`);
    });
  }
}
