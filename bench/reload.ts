// Reload (issue 18, item 7): the time from saving mcp.json (the write returned) to the
// change taking effect, as /health shows it, through the real `hub` CLI: a server added,
// a server removed; and from SIGHUP to the change when the file is saved without the
// watcher's help being needed. The watcher waits 300 ms for an editor's writes to settle;
// that wait is part of the figure. Run: node dist/bench/reload.js [runs]
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startHubBin } from './hub-bin.js';
import { median } from './measure.js';

const runs = Number(process.argv[2] ?? '10');
const crashy = fileURLToPath(new URL('../test/fixtures/children/crashy.js', import.meta.url));
const plugins = { 'oauth-as': false, 'map-tools': false };
const entry = { command: process.execPath, args: [crashy] };
const hub = await startHubBin({ mcpServers: { base: entry } });

const servers = async () => Object.keys(((await (await fetch(`${hub.url}/health`)).json()) as { servers: Record<string, string> }).servers);

/** Saves `names` as the config's servers; resolves with the time until /health lists exactly them. */
async function saveAndWait(names: string[], after?: () => void): Promise<number> {
  await writeFile(hub.configFile, JSON.stringify({ plugins, mcpServers: Object.fromEntries(names.map((name) => [name, entry])) }));
  const saved = performance.now();
  after?.();
  const wanted = [...names].sort().join(',');
  while ((await servers()).sort().join(',') !== wanted) await sleep(5);
  return performance.now() - saved;
}

const added: number[] = [];
const removed: number[] = [];
for (let run = 0; run < runs; run += 1) {
  added.push(await saveAndWait(['base', `extra${run}`]));
  removed.push(await saveAndWait(['base']));
}
const viaSighup: number[] = [];
for (let run = 0; run < runs; run += 1) {
  viaSighup.push(await saveAndWait(['base', `signalled${run}`], () => hub.signal('SIGHUP')));
  await saveAndWait(['base']);
}
await hub.close();
const figures = {
  runs,
  fileSaveToAddedMedianMs: Math.round(median(added)),
  fileSaveToRemovedMedianMs: Math.round(median(removed)),
  saveThenSighupToAddedMedianMs: Math.round(median(viaSighup)),
  slowestMs: Math.round(Math.max(...added, ...removed, ...viaSighup)),
  debounceMs: 300,
};
console.log(JSON.stringify(figures, null, 2));
