import { join } from 'node:path';
import t from 'tap';
import type { ChildObserver, ChildStartEvent } from '../../../core/children/child-observer.js';
import { CHILD_STATUSES, CHILD_TRANSITIONS, nextChildState, type ChildStatus, type ChildTransition } from '../../../core/children/child-states.js';
import { HUB_ERROR_CODES, HubError } from '../../../core/errors.js';
import { fixtureEntry, startHub, tempDir, waitFor } from './helpers.js';

t.test('the lifecycle table: only a start brings a server up, only a start or a crash puts it down', async (t) => {
  for (const from of CHILD_STATUSES) {
    for (const to of CHILD_STATUSES) {
      const allowed = CHILD_TRANSITIONS[from].includes(to);
      const step = (): unknown => nextChildState('s', { status: from, lastError: 'before' }, to);
      if (allowed) t.doesNotThrow(step, `${from} -> ${to}`);
      else t.throws(step, { code: HUB_ERROR_CODES.CHILD_TRANSITION }, `${from} -> ${to} is refused`);
    }
  }
  const intoUp = CHILD_STATUSES.filter((from) => CHILD_TRANSITIONS[from].includes('up'));
  t.same(intoUp, ['starting'], 'only starting leads up');
  const intoDown = CHILD_STATUSES.filter((from) => CHILD_TRANSITIONS[from].includes('down'));
  t.same(intoDown, ['starting', 'up'], 'down comes from a start or a running server');
});

t.test('the last error: set by a reason, kept through rest and retries, cleared by coming up', async (t) => {
  let state = nextChildState('s', { status: 'sleeping', lastError: undefined }, 'starting');
  state = nextChildState('s', state, 'down', 'spawn ENOENT');
  t.same(state, { status: 'down', lastError: 'spawn ENOENT' });
  state = nextChildState('s', state, 'sleeping');
  t.equal(state.lastError, 'spawn ENOENT', 'a server put to rest still says why it last failed');
  state = nextChildState('s', state, 'starting');
  t.equal(state.lastError, 'spawn ENOENT', 'and while it starts again');
  state = nextChildState('s', state, 'up');
  t.equal(state.lastError, undefined, 'a server that came up has no error');
  const refused = t.throws(() => nextChildState('s', state, 'up'));
  t.ok(refused instanceof HubError, 'a step the table refuses is a HubError');
});

t.test('observers hear every transition and start of a real child, in order, with reasons', async (t) => {
  const directory = await tempDir(t);
  const { hub } = await startHub(t, { config: { mcpServers: { crashy: fixtureEntry('crashy', join(directory, 'starts')) } } });
  const transitions: [string, ChildStatus, ChildStatus][] = [];
  const starts: ChildStartEvent[] = [];
  const observer: ChildObserver = {
    transition: (child, { from, to }: ChildTransition) => void transitions.push([child.name, from, to]),
    start: (_child, event) => void starts.push(event),
  };
  const unobserve = hub.children.observe(observer);
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');

  await child.ensureUp();
  t.same(transitions, [
    ['crashy', 'sleeping', 'starting'],
    ['crashy', 'starting', 'up'],
  ]);
  t.match(starts, [{ reason: 'wake', outcome: 'up' }]);
  t.ok((starts[0]?.durationMs ?? -1) >= 0, 'the start has a duration');

  await child.withClient((client) => client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined));
  await waitFor('the restart', () => starts.length === 2);
  t.same(transitions.slice(2, 5), [
    ['crashy', 'up', 'down'],
    ['crashy', 'down', 'starting'],
    ['crashy', 'starting', 'up'],
  ]);
  t.match(starts[1], { reason: 'restart', outcome: 'up' }, 'supervision says it restarted');

  await child.sleep();
  t.same(transitions.at(-1), ['crashy', 'up', 'sleeping']);
  unobserve();
  await child.ensureUp();
  t.equal(transitions.length, 6, 'an observer removed hears nothing more');
});

t.test('an observer that throws is logged and the child goes on', async (t) => {
  const directory = await tempDir(t);
  const { hub, logs } = await startHub(t, { config: { mcpServers: { crashy: fixtureEntry('crashy', join(directory, 'starts')) } } });
  hub.children.observe({
    transition: () => {
      throw new Error('observer broke');
    },
  });
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');
  await child.ensureUp();
  t.equal(child.status, 'up');
  t.ok(logs.some((line) => line.msg === 'child observer failed' && line.err === 'observer broke'));
});
