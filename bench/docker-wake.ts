// Docker children: the time from a call on a sleeping server to its answer (container
// created, attached, started, handshake, tool listing, the call), and the time a sleep
// takes to kill and remove the container. On podman's Docker-compatible service, which
// this script starts on a private socket as the tests do.
// Run: npx tsc -p . && node dist/bench/docker-wake.js [runs]
import { fixtureVolumes, startEngine, whyNoPodman } from '../test/plugins/lifecycle-docker/podman.js';
import { startBenchHub } from './bench-hub.js';
import { median } from './measure.js';

const runs = Number(process.argv[2] ?? '10');
const missing = whyNoPodman();
if (missing !== undefined) throw new Error(missing);
const engine = await startEngine();
const benchHub = await startBenchHub(
  {
    plugins: { 'map-tools': false },
    mcpServers: { bench: { type: 'docker', image: engine.image, args: ['/usr/bin/node', '/app/children/container.js'], volumes: fixtureVolumes() } },
  },
  { DOCKER_HOST: engine.dockerHost },
);
const server = benchHub.hub.children.get('bench');
if (!server) throw new Error('the bench server is missing');

const wakeTimes: number[] = [];
const sleepTimes: number[] = [];
for (let run = 0; run <= runs; run += 1) {
  const woken = performance.now();
  await server.withClient((client) => client.callTool({ name: 'echo', arguments: {} }));
  const answered = performance.now();
  await server.sleep();
  // The first run warms the engine and the file system cache; it is not counted.
  if (run === 0) continue;
  wakeTimes.push(answered - woken);
  sleepTimes.push(performance.now() - answered);
}
await benchHub.close();
await engine.stop();

console.log(
  JSON.stringify(
    {
      runs,
      coldWakeMedianMs: Math.round(median(wakeTimes)),
      coldWakeMaxMs: Math.round(Math.max(...wakeTimes)),
      sleepMedianMs: Math.round(median(sleepTimes)),
      sleepMaxMs: Math.round(Math.max(...sleepTimes)),
    },
    null,
    2,
  ),
);
