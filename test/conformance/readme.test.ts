import { readFile } from 'node:fs/promises';
import t from 'tap';
import { FIXTURE_VARIANTS } from '../fixtures/servers/conformance-server.js';
import { HUB_EXCLUSIONS, VARIANT_EXCLUSIONS } from './expectations.js';

// The exclusions live in one place (expectations.ts); the docs' page on MCP revisions
// (docs/reference/mcp-revisions.md, the README's until issue 41) states the same list.
const PAGE = new URL('../../../docs/reference/mcp-revisions.md', import.meta.url);

t.test('the revisions page names every conformance scenario the hub does not carry, and no other', async (t) => {
  const page = await readFile(PAGE, 'utf8');
  const paragraph = page.slice(page.indexOf('The official MCP conformance suite measures this'), page.indexOf('A scenario counts as passed only'));
  // Scenario names are the backquoted words with a dash in that paragraph.
  const named = [...paragraph.matchAll(/`([a-z0-9]+(?:-[a-z0-9]+)+)`/g)].map((match) => match[1]);
  const byVariant = Object.values(VARIANT_EXCLUSIONS).flatMap((sets) => Object.values(sets));
  const excluded = [...Object.values(HUB_EXCLUSIONS), ...byVariant].flatMap((scenarios) => Object.keys(scenarios));
  t.ok(paragraph.length > 0, 'the page has the paragraph');
  t.same([...new Set(named)].sort(), [...new Set(excluded)].sort());
});

// The figures come from the conformance tests' own output; every fixture and revision has its line.
t.test("the revisions page's conformance table has a line per fixture and revision, with passes, warnings and failures", async (t) => {
  const page = await readFile(PAGE, 'utf8');
  for (const variant of FIXTURE_VARIANTS) {
    for (const revision of ['2025-11-25', '2026-07-28']) {
      const line = page.split('\n').find((candidate) => candidate.startsWith(`| ${variant} | ${revision} |`));
      t.match(line, /^\|[^|]+\|[^|]+\| \d+ \/ \d+ \/ \d+ \| \d+ \/ \d+ \/ \d+ \|$/, `${variant} on ${revision}: through http and through stdio`);
    }
  }
});
