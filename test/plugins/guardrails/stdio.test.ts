import { join } from 'node:path';
import t from 'tap';
import { REVISIONS } from '../../helpers/clients.js';
import { checkRoad, guardrailConfig, stdioClient, viaHub } from './helpers.js';

/** A first call spawns the child from a process spawned itself: on a loaded machine that takes longer than the SDK's default minute. */
const SPAWN_TIMEOUT_MS = 180_000;

/* guard-secrets and output-limit over hub-stdio's call_tool, a real hub-stdio process on each revision (the HTTP roads: roads.test.ts). */
for (const revision of REVISIONS) {
  t.test(`the guardrails hold over hub-stdio on ${revision}`, async (t) => {
    const { configFile, folder, leaked, heard } = await guardrailConfig();
    const client = await stdioClient(t, revision, configFile, join(folder, 'data'));
    await checkRoad(t, `hub-stdio on ${revision}`, async (server) => viaHub(client, server, SPAWN_TIMEOUT_MS), leaked, heard);
  });
}
