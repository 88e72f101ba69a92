import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// Four runs of the suite: on a busy machine they outlast the 240 s every other file gets.
t.setTimeout(1_200_000);
// The official suite through /<name>/mcp against the conformance fixture
// as an http and as a stdio child (see through-hub.ts).
t.test('the conformance fixture through /<name>/mcp as an http and a stdio child', (t) => conformanceThroughHub(t, 'standard'));
