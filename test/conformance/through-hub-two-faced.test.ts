import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// The suite against a child with a different face per revision (its 2025-11-25 identity and completions are not its 2026-07-28 ones), directly and through /<name>/mcp (see through-hub.ts).
t.test('the two-faced conformance fixture, directly and through /<name>/mcp', (t) => conformanceThroughHub(t, 'two-faced'));
