import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { waitFor } from '../../core/children/helpers.js';
import { NOTES_SCHEMAS, NOTES_SPEC, startNotesApi } from './notes-api.js';

// The standalone hub in this process, reloaded by writing its config file again as it was:
// what a reload reads is the subject; SIGHUP's reload is a process's (test/core/config-appears.test.ts).

t.test('a config reload reads the document again, though the entry did not change', async (t) => {
  const api = await startNotesApi(t);
  const folder = await mkdtemp(join(tmpdir(), 'openapi-reload-'));
  await writeFile(join(folder, 'notes.yaml'), NOTES_SPEC);
  await writeFile(join(folder, 'schemas.yaml'), NOTES_SCHEMAS);
  const configFile = join(folder, 'mcp.json');
  const config = JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { notes: { type: 'openapi', spec: './notes.yaml', baseUrl: `${api.origin}/v1` } } });
  await writeFile(configFile, config);
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { configFile });
  const toolNames = async (): Promise<string[]> => {
    const client = await connectClient(t, `${hub.url}/notes/mcp`, '2026-07-28');
    return (await client.listTools()).tools.map((tool) => tool.name);
  };
  t.notOk((await toolNames()).includes('archive'), 'no archive tool yet');
  await writeFile(join(folder, 'notes.yaml'), `${NOTES_SPEC}  /archive:\n    post: { operationId: archive, responses: { '204': { description: Archived } } }\n`);
  t.notOk((await toolNames()).includes('archive'), 'the cached document serves until a reload');
  await writeFile(configFile, config);
  t.match(await hub.waitForLog('the reload', (record) => record.msg === 'config reloaded'), { unchanged: 1 }, 'the entry did not change');
  await waitFor('the new operation to be a tool', async () => (await toolNames().catch((): string[] => [])).includes('archive'));
  t.pass('after the reload the edited document is read and its new operation is a tool');
});
