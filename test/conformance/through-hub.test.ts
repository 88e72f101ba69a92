import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// The official suite against the conformance fixture directly, and through /<name>/mcp
// with it as an http and as a stdio child (see through-hub.ts).
t.test('the conformance fixture, directly and through /<name>/mcp', (t) => conformanceThroughHub(t, 'standard'));
