import { pathToFileURL } from 'node:url';
import t from 'tap';
import { fixture } from '../children/helpers.js';
import { startHubBin } from '../../helpers/hub-bin.js';

// Issue 43, items 8 and 9: every warning the process emits is a record of the JSON log
// (never Node's plain text on stderr), and the last record says the hub stopped and why.

const WARNS = pathToFileURL(fixture('../process/warns')).href;

t.test('process warnings are JSON log records, and the last record says the hub stopped and why', async (t) => {
  const hub = await startHubBin(t, { config: { plugins: { 'map-tools': false } }, env: { NODE_OPTIONS: `--import=${WARNS}`, HUB_PASSWORD: 'a-password-for-the-test' } });
  hub.signal('SIGUSR2');
  const warning = await hub.waitForLog('the warning raised while serving', (record) => record.msg === 'ServingWarning: a warning raised while serving');
  t.equal(warning.level, 40, 'at warn level');
  t.match(warning.warning, { name: 'ServingWarning', message: 'a warning raised while serving' }, 'with its name and message as fields');
  await hub.stop();
  t.equal(await hub.exited, 0);
  t.notMatch(hub.stderr(), /Warning/, 'nothing of it reached stderr');
  const last = hub.logs().at(-1);
  t.match(last, { level: 30, msg: 'hub stopped', signal: 'SIGTERM', reason: 'received SIGTERM' }, 'the last record says the hub stopped and why');
  t.type(last?.uptimeSeconds, 'number');
});
