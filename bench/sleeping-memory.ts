// Memory: the hub's RSS with 50 sleeping stdio servers configured (their snapshots on
// disk and loaded) against the same hub with none. Each figure comes from a fresh
// process, measured after start-up and a full GC.
// Run: npx tsc -p . && node dist/bench/sleeping-memory.js [servers]
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import type { Hub } from '../core/hub.js';
import { hub, onKernel } from '../core/kernel.js';

const self = fileURLToPath(import.meta.url);
const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

function config(servers: number): unknown {
  const mcpServers: Record<string, unknown> = {};
  for (let index = 0; index < servers; index += 1) mcpServers[`s${index}`] = { command: process.execPath, args: [everything, 'stdio'] };
  return { mcpServers };
}

async function measure(servers: number, dataPath: string): Promise<void> {
  const app = Fastify({ logger: false });
  await app.register(hub, { config: config(servers), env: { DATA_PATH: dataPath }, settings: { dataPath } });
  await app.ready();
  for (let round = 0; round < 3; round += 1) globalThis.gc?.();
  console.log(JSON.stringify({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed }));
  await app.close();
}

if (process.argv[2] === '--measure') {
  await measure(Number(process.argv[3]), String(process.argv[4]));
} else {
  const servers = Number(process.argv[2] ?? '50');
  const dataPath = await mkdtemp(join(tmpdir(), 'bench-memory-'));
  // One real snapshot (server-everything's full tool list), copied under every name.
  const app = Fastify({ logger: false });
  let first: Hub | undefined;
  await app.register(hub, { config: config(1), env: { DATA_PATH: dataPath }, settings: { dataPath }, [onKernel]: (created) => void (first = created) });
  await app.ready();
  await first?.children.get('s0')?.ensureUp();
  await app.close();
  const snapshot = JSON.parse(await readFile(join(dataPath, 'snapshots', 's0.json'), 'utf8')) as { name: string; tools: unknown[] };
  await mkdir(join(dataPath, 'snapshots'), { recursive: true });
  for (let index = 0; index < servers; index += 1) {
    await writeFile(join(dataPath, 'snapshots', `s${index}.json`), JSON.stringify({ ...snapshot, name: `s${index}` }));
  }
  const sample = (count: number): { rss: number; heapUsed: number } =>
    JSON.parse(execFileSync(process.execPath, ['--expose-gc', self, '--measure', String(count), dataPath], { encoding: 'utf8' }).trim()) as { rss: number; heapUsed: number };
  const none: number[] = [];
  const many: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    none.push(sample(0).rss);
    many.push(sample(servers).rss);
  }
  await rm(dataPath, { recursive: true, force: true });
  const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[1] ?? Number.NaN;
  console.log(
    JSON.stringify(
      { servers, toolsPerSnapshot: snapshot.tools.length, rssNoneMb: mb(median(none)), rssSleepingMb: mb(median(many)), differenceMb: mb(median(many) - median(none)), targetMb: 20 },
      null,
      2,
    ),
  );
}
