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

interface Approvals {
  waiting: Array<{ server: string; tool: string | null; digest: string; tooLarge: string | null; diff: string | null }>;
  approveAll: Array<{ server: string; digests: string[] | null }>;
}

/** The approvals as the console's view reads them, and an approval sent as it sends one, for a logged-in operator. */
async function operator(url: string): Promise<{ approvals(): Promise<Approvals>; approve(body: Record<string, unknown>): Promise<Response> }> {
  const first = await fetch(`${url}/tool-approvals`);
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await first.text())?.[1] ?? '';
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, password: PASSWORD, return_to: '/tool-approvals' }).toString(),
  });
  const session = [cookie, ...login.headers.getSetCookie().map((line) => line.split(';')[0])].join('; ');
  const view = await fetch(`${url}/tool-approvals`, { headers: { cookie: session } });
  const token = /<meta name="csrf-token" content="([^"]+)">/.exec(await view.text())?.[1] ?? '';
  const headers = {
    cookie: [session, ...view.headers.getSetCookie().map((line) => line.split(';')[0])].join('; '),
    origin: url,
    'sec-fetch-site': 'same-origin',
    'content-type': 'application/json',
    'x-csrf-token': token,
  };
  return {
    approvals: async () => (await (await fetch(`${url}/tool-approvals.json`, { headers: { cookie: headers.cookie } })).json()) as Approvals,
    approve: (body) => fetch(`${url}/tool-approvals/approve`, { method: 'POST', headers, body: JSON.stringify(body) }),
  };
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

  const session = await operator(url);
  const { waiting, approveAll } = await session.approvals();
  const change = waiting.find((item) => item.server === 'styled' && item.tool === 'styled');
  t.ok(change, 'the approvals list the change');
  t.match(
    change?.tooLarge,
    /^the definition of tool "styled" is \d+ characters as JSON, more than the 256 KiB an operator can review, so it cannot be approved: the server's author must shorten it/,
    'and say why it cannot be approved',
  );
  t.equal(change?.diff, null, 'nothing is shown, so nothing is shown cut');
  t.notOk(
    approveAll.some((set) => set.digests?.includes(change?.digest ?? '')),
    'no "approve all" carries it',
  );
  const refused = await session.approve({ server: 'styled', tool: 'styled', digest: change?.digest });
  t.equal(refused.status, 409, 'an approval of it, sent anyway, approves nothing');
  t.notOk((await listed(client)).includes('styled'), 'the tool stays withheld');
});
