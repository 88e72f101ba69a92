import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// Four runs of the suite: on a busy machine they outlast the 240 s every other file gets.
t.setTimeout(1_200_000);
// The suite against a child that announces tool and prompt list changes on a timer too through /<name>/mcp (see through-hub.ts).
t.test('the ticking conformance fixture through /<name>/mcp as an http and a stdio child', (t) => conformanceThroughHub(t, 'ticking'));
