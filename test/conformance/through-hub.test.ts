import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// Six runs of the suite: on a busy machine they outlast the 240 s every other file gets.
t.setTimeout(1_200_000);
// The official suite against the conformance fixture directly, and through /<name>/mcp
// with it as an http and as a stdio child (see through-hub.ts).
t.test('the conformance fixture, directly and through /<name>/mcp', (t) => conformanceThroughHub(t, 'standard'));
