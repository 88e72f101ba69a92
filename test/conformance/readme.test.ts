import { readFile } from 'node:fs/promises';
import t from 'tap';
import { FIXTURE_VARIANTS } from '../fixtures/servers/conformance-server.js';
import { HUB_EXCLUSIONS } from './expectations.js';

// The exclusions live in one place (expectations.ts); the README states the same list.
t.test('the README names every conformance scenario the hub does not carry, and no other', async (t) => {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const paragraph = readme.slice(readme.indexOf('The official MCP conformance suite measures this'), readme.indexOf('A scenario counts as passed only'));
  // Scenario names are the backquoted words with a dash in that paragraph.
  const named = [...paragraph.matchAll(/`([a-z0-9]+(?:-[a-z0-9]+)+)`/g)].map((match) => match[1]);
  const excluded = Object.values(HUB_EXCLUSIONS).flatMap((scenarios) => Object.keys(scenarios));
  t.ok(paragraph.length > 0, 'the README has the paragraph');
  t.same([...new Set(named)].sort(), [...new Set(excluded)].sort());
});

// The figures come from the conformance tests' own output; every fixture and revision has its line.
t.test("the README's conformance table has a line per fixture and revision, with passes, warnings and failures", async (t) => {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  for (const variant of FIXTURE_VARIANTS) {
    for (const revision of ['2025-11-25', '2026-07-28']) {
      const line = readme.split('\n').find((candidate) => candidate.startsWith(`| ${variant} | ${revision} |`));
      t.match(line, /^\|[^|]+\|[^|]+\| \d+ \/ \d+ \/ \d+ \| \d+ \/ \d+ \/ \d+ \| \d+ \/ \d+ \/ \d+ \|$/, `${variant} on ${revision}`);
    }
  }
});
