// Prints refresh-token rotations per second on the embedded store (one family, then 50 at once) and the p50 time of the
// authenticator's verification of a bearer token.  Run: node dist/bench/oauth.js
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Value from 'typebox/value';
import { openStore } from '../core/store/index.js';
import { OAuthAsOptions } from '../plugins/oauth-as/options.js';
import { collections, createIndexes } from '../plugins/oauth-as/records.js';
import { TokenService } from '../plugins/oauth-as/tokens.js';

const store = await openStore({ dataPath: await mkdtemp(join(tmpdir(), 'bench-oauth-')) });
const c = collections(store);
await createIndexes(c);
const tokens = new TokenService(c, { ...Value.Create(OAuthAsOptions), refreshTokenSeconds: 86400 });
const resource = 'http://127.0.0.1:3000/hub';

let current = await tokens.startFamily({ clientId: 'bench', resource, scope: 'mcp' });
const rotations = 2000;
let started = performance.now();
for (let index = 0; index < rotations; index++) current = await tokens.refresh(current.refresh_token, 'bench', undefined);
const perSecond = rotations / ((performance.now() - started) / 1000);

// Many clients at once: 50 families, each rotated in turn by its own caller.
const families = await Promise.all(Array.from({ length: 50 }, () => tokens.startFamily({ clientId: 'bench', resource, scope: 'mcp' })));
started = performance.now();
await Promise.all(
  families.map(async (family) => {
    let latest = family;
    for (let index = 0; index < rotations / families.length; index++) latest = await tokens.refresh(latest.refresh_token, 'bench', undefined);
  }),
);
const concurrentPerSecond = rotations / ((performance.now() - started) / 1000);

const samples: number[] = [];
for (let index = 0; index < 20_000; index++) {
  started = performance.now();
  if (!(await tokens.verify(current.access_token, resource))) throw new Error('verification failed');
  samples.push(performance.now() - started);
}
samples.sort((a, b) => a - b);
const p50 = samples[Math.floor(samples.length / 2)] ?? 0;
const p99 = samples[Math.floor(samples.length * 0.99)] ?? 0;
console.log(`refresh-token rotations (embedded store): ${perSecond.toFixed(0)}/s one after another, ${concurrentPerSecond.toFixed(0)}/s across 50 concurrent families`);
console.log(`bearer verification: p50 ${(p50 * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs`);
await store.close();
