import t from 'tap';
import { startHubBin } from '../helpers/hub-bin.js';

// Issue 43, item 9 (part): LOG_STYLE=collector writes the level as a word and the time as
// ISO 8601 in JSON records, as Elastic, Loki and Cloud Logging expect.

t.test('LOG_STYLE=collector: level as a word, time as ISO 8601', async (t) => {
  const hub = await startHubBin(t, { config: { plugins: { 'map-tools': false } }, env: { LOG_STYLE: 'collector', LOG_LEVEL: 'info', HUB_PASSWORD: 'a-password-for-the-test' } });
  const record = (await hub.waitForLog('the listening record', (line) => /Server listening/.test(line.msg))) as unknown as { level: unknown; time: unknown };
  t.equal(record.level, 'info', 'the level is a word');
  t.type(record.time, 'string');
  t.match(record.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'the time is ISO 8601');
});
