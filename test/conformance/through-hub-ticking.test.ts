import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// The suite against a child that announces tool and prompt list changes on a timer too, directly and through /<name>/mcp (see through-hub.ts).
t.test('the ticking conformance fixture, directly and through /<name>/mcp', (t) => conformanceThroughHub(t, 'ticking'));
