import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// Four runs of the suite: on a busy machine they outlast the 240 s every other file gets.
t.setTimeout(1_200_000);
// The suite against a child that declares tools, resources and prompts and nothing else through /<name>/mcp (see through-hub.ts).
t.test('the minimal conformance fixture through /<name>/mcp as an http and a stdio child', (t) => conformanceThroughHub(t, 'minimal'));
