import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Test } from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runNode } from '../../helpers/cli.js';
import { startFakeServices } from './fakes/services.js';

const CLI = fileURLToPath(new URL('../../../plugins/map-tools/cli.js', import.meta.url));

const REVISIONS = [
  { name: '2025-11-25 (initialize)', options: {}, era: 'legacy' },
  { name: '2026-07-28 (pinned)', options: { versionNegotiation: { mode: { pin: '2026-07-28' } } }, era: 'modern' },
] as const;

async function exercise(t: Test, client: Client, era: string) {
  t.equal(client.getProtocolEra(), era);
  const { tools } = await client.listTools();
  t.equal(tools.length, 6, 'MAP_ALLOW_TOOLS=essential applies');
  const result = await client.callTool({ name: 'geocode', arguments: { query: 'Casino Square' } });
  t.notOk(result.isError);
  t.match(result.structuredContent, { untrusted: true, source: 'openstreetmap', results: [{ osm_id: 'way/1001' }] });
  const link = await client.callTool({ name: 'map_link', arguments: { from: '43.7,7.4', to: '43.71,7.41', profile: 'car' } });
  t.match(link.structuredContent, { directions_engine: 'fossgis_osrm_car' });
  const bad = await client.callTool({ name: 'route', arguments: { waypoints: ['Atlantis', '1,1'], profile: 'foot' } });
  t.equal(bad.isError, true);
}

t.test('--help and --version', async (t) => {
  const [help, version, bad, missing, unknown] = await Promise.all([
    runNode(CLI, ['--help'], {}),
    runNode(CLI, ['--version'], {}),
    runNode(CLI, ['--http', 'abc'], {}),
    runNode(CLI, ['--http'], {}),
    runNode(CLI, [], { MAP_ALLOW_TOOLS: 'teleport' }),
  ]);
  t.equal(help.code, 0);
  t.match(help.stdout, /Usage: map-server \[--http <port>\]/);
  t.match(help.stdout, /MAP_ALLOW_TOOLS/);
  t.match(version.stdout, /^\d+\.\d+\.\d+/);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /map-server: --http expects a port number/);
  t.match(missing.stderr, /--http needs a value/);
  t.match(unknown.stderr, /MAP_ALLOW_TOOLS: unknown map tool "teleport"/);
});

t.test('over stdio, both revisions', async (t) => {
  const fake = await startFakeServices(t);
  for (const revision of REVISIONS) {
    await t.test(revision.name, async (t) => {
      const client = new Client({ name: 'test', version: '1.0.0' }, revision.options);
      const env = { ...(process.env as Record<string, string>), ...fake.env({ MAP_ALLOW_TOOLS: 'essential' }) };
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI], env, stderr: 'ignore' }));
      t.teardown(() => client.close());
      await exercise(t, client, revision.era);
    });
  }
});

t.test('over --http, both revisions', async (t) => {
  const fake = await startFakeServices(t);
  const child = spawn(process.execPath, [CLI, '--http', '0'], { env: { ...process.env, ...fake.env({ MAP_ALLOW_TOOLS: 'essential' }) }, stdio: ['ignore', 'ignore', 'pipe'] });
  t.teardown(() => child.kill('SIGTERM'));
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    child.on('exit', () => reject(new Error(`map-server exited: ${stderr}`)));
  });
  for (const revision of REVISIONS) {
    await t.test(revision.name, async (t) => {
      const client = new Client({ name: 'test', version: '1.0.0' }, revision.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      t.teardown(() => client.close());
      await exercise(t, client, revision.era);
    });
  }
  const notFound = await fetch(url.replace(/\/mcp$/, '/other'));
  t.equal(notFound.status, 404);
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', reject);
    request.end('{}');
  });
  t.equal(status, 403, 'the Host check guards the loopback bind');
});
