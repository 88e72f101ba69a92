import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { checkConfig, type CheckReport } from '../../../core/cli/check.js';
import { freePort } from '../../helpers/net.js';
import { tempDir } from '../../core/children/helpers.js';
import { NOTES_SCHEMAS, NOTES_SPEC, startNotesApi } from './notes-api.js';

/**
 * What `hub check --json [--connect]` reports, made in this process as the CLI makes it (its
 * exit code is `report.ok ? 0 : 1`): what the openapi type checks is the subject; the
 * CLI's process is test/core/operator/check.test.ts's.
 */
async function check(folder: string, servers: Record<string, unknown>, connect = false): Promise<CheckReport> {
  const file = join(folder, 'mcp.json');
  await writeFile(file, JSON.stringify({ plugins: { 'map-tools': false, 'oauth-as': false }, mcpServers: servers }));
  return checkConfig({ ...process.env, HUB_CONFIG: file, DATA_PATH: join(folder, 'data') }, connect);
}

t.test('hub check reads and validates the document; --connect makes one HEAD request to the base URL', async (t) => {
  const folder = await tempDir(t);
  await writeFile(join(folder, 'notes.yaml'), NOTES_SPEC);
  await writeFile(join(folder, 'schemas.yaml'), NOTES_SCHEMAS);
  await writeFile(join(folder, 'old.json'), JSON.stringify({ swagger: '2.0', info: { title: 'Old', version: '1' }, paths: {} }));
  const api = await startNotesApi(t);
  const closed = `http://127.0.0.1:${await freePort()}/v1`;

  const checked = await check(folder, {
    notes: { type: 'openapi', spec: './notes.yaml', baseUrl: `${api.origin}/v1` },
    old: { type: 'openapi', spec: './old.json' },
    far: { type: 'openapi', spec: './notes.yaml', operations: ['GET /elsewhere'] },
    odd: { type: 'openapi', spec: './notes.yaml', arguments: 'nested' },
  });
  t.equal(checked.ok, false, 'problems found: hub check exits 1');
  const byName = new Map(checked.servers.map((server) => [server.name, server]));
  t.match(byName.get('notes'), {
    type: 'openapi',
    status: 'ok',
    detail:
      /notes\.yaml \(OpenAPI 3\.1\): 10 tools calling http:\/\/127\.0\.0\.1:\d+\/v1; not offered: GET \/elsewhere \(its server https:\/\/other\.example\/v1 is not on the base URL's origin http:\/\/127\.0\.0\.1:\d+\)$/,
  });
  t.match(byName.get('old'), { status: 'problem', detail: /old\.json is a Swagger 2\.0 document; .*convert it first/ });
  t.match(byName.get('far'), { status: 'problem', detail: /"operations" names GET \/elsewhere, which is refused/ });
  t.match(byName.get('odd'), { status: 'problem', detail: /server "odd": key "arguments": expected one of "flat", "grouped"$/ }, 'the arguments shape is one of the two');
  t.same(api.seen, [], 'without --connect the API is not asked');

  const connected = await check(folder, { notes: { type: 'openapi', spec: './notes.yaml', baseUrl: `${api.origin}/v1` }, gone: { type: 'openapi', spec: './notes.yaml', baseUrl: closed } }, true);
  const after = new Map(connected.servers.map((server) => [server.name, server]));
  t.match(after.get('notes')?.handshake, { ok: true, detail: /answered the MCP handshake .*10 tools/ });
  t.same(
    api.seen.map((request) => `${request.method} ${request.url}`),
    ['HEAD /v1'],
    'one HEAD request to the base URL',
  );
  t.match(after.get('gone')?.handshake, { ok: false, detail: /server "gone": HEAD \/v1 could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/ });
});
