import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { fixture, tempDir, waitFor } from '../../core/children/helpers.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

// Issue 44, S2: the approval page cut a definition at 256 KiB while Approve approved all
// of it. What is approved is exactly what was shown: a definition too large to review is
// refused, with a reason its server's author can act on, and never offered.

const PASSWORD = 'correct horse battery';
const listed = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

/** The approval page as a logged-in operator sees it. */
async function approvalsPage(url: string): Promise<string> {
  const first = await fetch(`${url}/tool-approvals`);
  const cookie = first.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await first.text())?.[1] ?? '';
  const login = await fetch(`${url}/login`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: csrf, password: PASSWORD, return_to: '/tool-approvals' }).toString() });
  const session = [cookie, ...login.headers.getSetCookie().map((line) => line.split(';')[0])].join('; ');
  return (await fetch(`${url}/tool-approvals`, { headers: { cookie: session } })).text();
}

t.test('a definition too large to review is refused with a reason, not cut and offered for approval', async (t) => {
  const folder = await tempDir(t);
  const file = join(folder, 'instructions.txt');
  await writeFile(file, 'Use styled.');
  const { url } = await startTestHub(t, {
    env: { HUB_PASSWORD: PASSWORD },
    config: {
      mcpServers: { styled: { command: process.execPath, args: [fixture('styled-tools')], env: { FIXTURE_INSTRUCTIONS: file }, pinTools: true } },
      plugins: { 'map-tools': false, 'tool-pinning': { approveFirstSight: true } },
    },
  });
  const client = await connectClient(t, `${url}/styled/mcp`, '2026-07-28');
  await waitFor('the first definitions to be approved', async () => (await listed(client)).includes('styled'));
  await client.callTool({ name: 'restyle', arguments: { part: 'description' } });
  await waitFor('styled withheld', async () => !(await listed(client)).includes('styled'));

  const page = await approvalsPage(url);
  t.match(page, /styled of styled/, 'the page lists the change');
  t.match(page, /Cannot be approved: the definition of tool &#34;styled&#34; is \d+ characters as JSON, more than the 256 KiB an operator can review, so it cannot be approved: the server&#39;s author must shorten it/, 'and says why it cannot be approved');
  t.notMatch(page, /Approve styled of styled/, 'with no Approve button for it');
  t.notMatch(page, /more characters not kept/, 'nothing is shown cut');
  t.notOk((await listed(client)).includes('styled'), 'the tool stays withheld');
});
