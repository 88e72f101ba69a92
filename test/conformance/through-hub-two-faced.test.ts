import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// Four runs of the suite: on a busy machine they outlast the 240 s every other file gets.
t.setTimeout(1_200_000);
// The suite against a child with a different face per revision (its 2025-11-25 identity and completions are not its 2026-07-28 ones) through /<name>/mcp (see through-hub.ts).
t.test('the two-faced conformance fixture through /<name>/mcp as an http and a stdio child', (t) => conformanceThroughHub(t, 'two-faced'));
