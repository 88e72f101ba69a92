import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import t from 'tap';

/*
 * Issue 58: no import circle in core/, checked by dependency-cruiser (not by hand). It
 * reads the compiled modules (dist/core): TypeScript 7 offers the cruiser no compiler API
 * to read the sources with, and what the compiled modules import is what loads at run
 * time (type-only imports are erased).
 */

const root = join(fileURLToPath(import.meta.url), '..', '..', '..', '..');

t.test('no module of core/ imports itself round a circle', async (t) => {
  const result = await cruise(['dist/core'], {
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: { path: '^dist/core' }, to: { circular: true } }] },
    includeOnly: '^dist/core',
    exclude: { path: '\\.d\\.ts$|\\.map$' },
    doNotFollow: { path: 'node_modules' },
  });
  const output = result.output as ICruiseResult;
  t.ok(output.summary.totalCruised > 100, `the cruise read core's modules (${output.summary.totalCruised})`);
  const circles = output.summary.violations
    .filter((violation) => violation.rule.name === 'no-circular')
    .map((violation) => [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' -> '));
  t.same(circles, [], 'no import circle');
});
