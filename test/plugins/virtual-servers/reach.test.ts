import t from 'tap';
import { fixture, waitFor } from '../../core/children/helpers.js';
import { adminBeside } from '../../helpers/admin.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { metaError } from '../meta-tools/helpers.js';
import { PASSWORD } from '../oauth-as/flows.js';
import { firstText } from './helpers.js';

// Issue 35 (38 here): reach is checked against the virtual server. A token bound to the
// kit calls its tools without opening the underlying servers' own endpoints; a /hub token
// limited to the kit the same. The standalone hub and hub-admin's tokens mint run in this
// process: the reach is the subject, not a process.

const changing = () => ({ command: process.execPath, args: [fixture('changing-tools')] });

t.test('a token bound to the kit, and a /hub token limited to it, call its tools and reach nothing else', async (t) => {
  const hub = await startStandaloneHub(
    t,
    { HUB_PASSWORD: PASSWORD },
    {
      config: {
        plugins: { 'map-tools': false },
        mcpServers: {
          alpha: changing(),
          beta: { ...changing(), hub: false },
          kit: {
            type: 'virtual',
            tools: [
              { server: 'alpha', tool: 'echo', name: 'say' },
              { server: 'beta', tool: 'echo', name: 'say_beta' },
            ],
          },
        },
      },
    },
  );
  const admin = adminBeside(hub.env);
  const mint = async (...args: string[]) => {
    const minted = await admin('tokens', 'mint', ...args);
    t.equal(minted.code, 0, minted.stderr);
    return minted.stdout.trim();
  };
  const kitToken = await mint('--resource', 'kit');
  const hubToken = await mint('--resource', 'hub', '--servers', 'kit');
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  // Both servers run once (a server never started has no tools the kit could list).
  const all = await mint('--all');
  for (const server of ['alpha', 'beta']) await (await connectClient(t, `${hub.url}/${server}/mcp`, '2025-11-25', bearer(all))).callTool({ name: 'echo', arguments: {} });
  const kitNames = await connectClient(t, `${hub.url}/kit/mcp`, '2025-11-25', bearer(kitToken));
  await waitFor('the kit to list both tools', async () => (await kitNames.listTools()).tools.length === 2);
  for (const revision of REVISIONS) {
    const kit = await connectClient(t, `${hub.url}/kit/mcp`, revision, bearer(kitToken));
    t.equal(firstText(await kit.callTool({ name: 'say', arguments: {} })), 'ok', `${revision}: the kit token calls the kit's tool of alpha`);
    t.equal(firstText(await kit.callTool({ name: 'say_beta', arguments: {} })), 'ok', `${revision}: and of beta, a hub: false server`);
    await t.rejects(connectClient(t, `${hub.url}/alpha/mcp`, revision, bearer(kitToken)), `${revision}: the kit token does not open alpha's own endpoint`);
    await t.rejects(connectClient(t, `${hub.url}/hub`, revision, bearer(kitToken)), `${revision}: nor /hub`);

    const limited = await connectClient(t, `${hub.url}/hub`, revision, bearer(hubToken));
    const called = await limited.callTool({ name: 'call_tool', arguments: { server: 'kit', tool: 'say', arguments: {} } });
    t.equal(firstText(called), 'ok', `${revision}: a /hub token limited to kit calls the kit's tool`);
    t.match(await metaError(limited, 'call_tool', { server: 'alpha', tool: 'echo', arguments: {} }), /Unknown server: "alpha"/, `${revision}: but not alpha itself`);
  }
});
