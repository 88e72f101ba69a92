// A hub in this process that exits without closing anything (process.exit), as a hard stop
// does, once its server has forked its helper:
//   node hard-stop-hub.js <folder>   (mcp.json and data under <folder>, the helper's pid in <folder>/helpers)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startHub } from '../../../core/server.js';

const folder = process.argv[2] ?? '';
const helpers = join(folder, 'helpers');
const config = join(folder, 'mcp.json');
const server = fileURLToPath(new URL('../../fixtures/children/forks-helper.js', import.meta.url));
writeFileSync(
  config,
  JSON.stringify({ plugins: { 'map-tools': false, 'oauth-as': false }, mcpServers: { forks: { command: process.execPath, args: [server], env: { FIXTURE_HELPERS: helpers }, keepAlive: true } } }),
);
await startHub({ HOST: '127.0.0.1', PORT: '0', DATA_PATH: join(folder, 'data'), HUB_CONFIG: config, LOG_LEVEL: 'silent' });
while (!existsSync(helpers) || readFileSync(helpers, 'utf8').trim() === '') await sleep(25);
process.exit(0);
