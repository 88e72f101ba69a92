import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { fixture, tempDir } from './children/helpers.js';
import { startStandaloneHub } from '../helpers/hub.js';

// Issue 43, item 11: the hub watches the path HUB_CONFIG names even while no file is there,
// and reads the file when it appears; SIGHUP then reloads it too. The standalone hub in this
// process, with the reload its SIGHUP handler runs: what a reload reads is the subject; the
// handler on a hub process is test/core/operator/reload.test.ts's.

t.test('a config file written after start is read, and SIGHUP reloads it', async (t) => {
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { configFile: join(await tempDir(t), 'mcp.json') });
  const early = hub.logs().length;
  t.equal(await hub.hub.reloadConfig('SIGHUP'), false, 'refused');
  const refused = await hub.waitForLog('a SIGHUP before the file exists', (record) => /config reload refused/.test(record.msg));
  t.match(refused.msg, /there is no config file \(yet\)/, 'SIGHUP before the file exists says where to write it');
  t.ok(hub.logs().length > early);

  await writeFile(hub.configFile, JSON.stringify({ mcpServers: { late: { command: process.execPath, args: [fixture('changing-tools')] } } }));
  const applied = await hub.waitForLog('the new file to be read', (record) => record.msg === 'config reloaded' && (record.added as string[] | undefined)?.includes('late') === true);
  t.equal(applied.trigger, 'file change', 'read because the file appeared');

  await hub.hub.reloadConfig('SIGHUP');
  const again = await hub.waitForLog('the SIGHUP reload', (record) => record.msg === 'config reloaded' && record.trigger === 'SIGHUP');
  t.equal(again.unchanged, 1, 'SIGHUP reloads the file that appeared');
  t.notOk(
    hub.logs().some((record) => /not read from a file/.test(record.msg)),
    'never "the config was not read from a file"',
  );
});
