import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startHubBin } from '../../helpers/hub-bin.js';
import { waitFor } from '../../core/children/helpers.js';
import { NOTES_SCHEMAS, NOTES_SPEC, startNotesApi } from './notes-api.js';

t.test('a config reload reads the document again, though the entry did not change', async (t) => {
  const api = await startNotesApi(t);
  const folder = await mkdtemp(join(tmpdir(), 'openapi-reload-'));
  await writeFile(join(folder, 'notes.yaml'), NOTES_SPEC);
  await writeFile(join(folder, 'schemas.yaml'), NOTES_SCHEMAS);
  const hub = await startHubBin(t, {
    folder,
    config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { notes: { type: 'openapi', spec: './notes.yaml', baseUrl: `${api.origin}/v1` } } },
  });
  const toolNames = async (): Promise<string[]> => {
    const client = await connectClient(t, `${hub.url}/notes/mcp`, '2026-07-28');
    return (await client.listTools()).tools.map((tool) => tool.name);
  };
  t.notOk((await toolNames()).includes('archive'), 'no archive tool yet');
  await writeFile(join(folder, 'notes.yaml'), `${NOTES_SPEC}  /archive:\n    post: { operationId: archive, responses: { '204': { description: Archived } } }\n`);
  t.notOk((await toolNames()).includes('archive'), 'the cached document serves until a reload');
  hub.signal('SIGHUP');
  await hub.waitForLog('the reload', (record) => record.msg === 'config reloaded');
  await waitFor('the new operation to be a tool', async () => (await toolNames().catch((): string[] => [])).includes('archive'));
  t.pass('after the reload the edited document is read and its new operation is a tool');
});
