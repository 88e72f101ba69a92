import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { waitFor } from '../../core/children/helpers.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { freePort } from '../../helpers/net.js';
import { echoMetaEntry } from './helpers.js';

const CALLS = 7;
const SERIES = 'hub_tool_calls_total{server="meta",tool="echo_meta",outcome="ok"}';

/** A real Prometheus (Debian's `prometheus` package) scraping `target` every 2 s (a scrape may take that long on a busy machine). */
async function startPrometheus(t: { teardown(fn: () => unknown): void }, target: string): Promise<(query: string) => Promise<number | undefined>> {
  const folder = await mkdtemp(join(tmpdir(), 'prometheus-'));
  const config = join(folder, 'prometheus.yml');
  await writeFile(config, `global: { scrape_interval: 2s, scrape_timeout: 2s }\nscrape_configs:\n  - job_name: mcp-switchyard\n    static_configs: [{ targets: ['${target}'] }]\n`);
  const port = await freePort();
  const prometheus = spawn('prometheus', [`--config.file=${config}`, `--storage.tsdb.path=${join(folder, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => prometheus.once('exit', resolve));
  t.teardown(async () => {
    prometheus.kill('SIGTERM');
    await exited;
    await rm(folder, { recursive: true, force: true });
  });
  return async (query) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(query)}`).catch(() => undefined);
    if (!response?.ok) return undefined;
    const body = (await response.json()) as { data: { result: Array<{ value: [number, string] }> } };
    const value = body.data.result[0]?.value[1];
    return value === undefined ? undefined : Number(value);
  };
}

/**
 * Issue 27, defect 2, as an SRE saw it: a series appeared only at its first increment, so
 * `increase()` read 0 after the first burst. A real Prometheus scrapes a restarted hub
 * before any call (the series of the tool its snapshot lists is there at 0) and after a
 * burst: `increase()` sees the burst.
 */
t.test('a real Prometheus sees the first burst after a restart of the hub in increase()', async (t) => {
  const config = { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } };
  // A first run learns the server's tools and keeps them in its snapshot.
  const first = await startTestHub(t, { config });
  await first.hub.children.get('meta')?.ensureUp();
  await first.app.close();
  const { url } = await startTestHub(t, { config, dataPath: first.dataPath });
  const query = await startPrometheus(t, new URL(url).host);
  await waitFor('the series at 0 in Prometheus, before any call', async () => (await query(SERIES)) === 0);
  const client = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  for (let call = 0; call < CALLS; call += 1) await client.callTool({ name: 'echo_meta', arguments: {} });
  await waitFor('a scrape after the burst', async () => (await query(SERIES)) === CALLS);
  const increase = await query(`increase(${SERIES}[1m])`);
  t.ok(increase !== undefined && increase >= CALLS, `increase() counts the first burst (${increase} for ${CALLS} calls)`);
});
