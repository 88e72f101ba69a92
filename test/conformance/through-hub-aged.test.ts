import t from 'tap';
import { conformanceOnAgedHub } from './through-hub.js';

// Two runs of the suite and a wait past the body timeout: more than most files, on a busy machine.
t.setTimeout(900_000);
// Issue 55.1: the suite's score through the hub does not depend on how long the hub has
// been up (see conformanceOnAgedHub).
t.test('the conformance fixture through a hub up past its body timeout, its listen cut once', (t) => conformanceOnAgedHub(t));
