// Writes docs/status.png, the console's overview (where /status leads) of a hub with a few servers, as the README shows
// it: server-everything woken and called (a few calls fail on purpose), a second one left
// asleep, and one that cannot start. Debian's Chromium takes the picture.
// Run: npm run build && node dist/bench/status-screenshot.js [output.png]
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium } from 'playwright-core';
import { startBenchHub } from './bench-hub.js';

const output = process.argv[2] ?? fileURLToPath(new URL('../../docs/status.png', import.meta.url));
const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const password = 'status screenshot';

const benchHub = await startBenchHub(
  {
    plugins: { 'oauth-as': false, 'map-tools': false },
    mcpServers: {
      everything: { command: process.execPath, args: [everything, 'stdio'] },
      archive: { command: process.execPath, args: [everything, 'stdio'] },
      billing: { command: process.execPath, args: ['-e', "process.stderr.write('error: cannot reach the database at db.internal:5432\\n'); process.exit(1)"] },
    },
  },
  { HUB_PASSWORD: password },
);
try {
  const client = new Client({ name: 'screenshot', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${benchHub.url}/everything/mcp`)));
  for (let call = 0; call < 40; call += 1) await client.callTool({ name: 'echo', arguments: { message: call % 10 === 9 ? call : `call ${call}` } });
  await client.close();
  await benchHub.hub.children
    .get('billing')
    ?.ensureUp()
    .catch(() => undefined);

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 560 } });
    await page.goto(`${benchHub.url}/status`);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    // The console's overview, where /status leads, is drawn by its script.
    await page.locator('#overview table').first().waitFor();
    await page.screenshot({ path: output, fullPage: true });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${output}`);
} finally {
  await benchHub.close();
}
