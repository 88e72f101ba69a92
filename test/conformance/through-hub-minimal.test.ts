import t from 'tap';
import { conformanceThroughHub } from './through-hub.js';

// The suite against a child that declares tools, resources and prompts and nothing else, directly and through /<name>/mcp (see through-hub.ts).
t.test('the minimal conformance fixture, directly and through /<name>/mcp', (t) => conformanceThroughHub(t, 'minimal'));
