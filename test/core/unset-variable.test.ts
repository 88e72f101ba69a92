import t from 'tap';
import { fixture } from './children/helpers.js';
import { connectClient } from '../helpers/clients.js';
import { cliPath, runNode } from '../helpers/cli.js';
import { startHubBin } from '../helpers/hub-bin.js';

// Issue 43, item 13: one server's unset ${VAR} takes down that server only, naming the
// variable (hub check, list_servers), the others run, and hub-admin needs none of it.

const UNSET = 'HUB43_NEVER_SET_TOKEN';
const child = () => ({ command: process.execPath, args: [fixture('changing-tools')] });

t.test('an unset variable in one entry: that server is down naming it, the others serve', async (t) => {
  const hub = await startHubBin(t, {
    config: { mcpServers: { good: child(), needy: { ...child(), env: { TOKEN: `\${${UNSET}}` } } }, plugins: { 'map-tools': false } },
    env: { HUB_PASSWORD: 'a-password-for-the-test', LOG_LEVEL: 'warn', [UNSET]: undefined },
  });
  const admin = (...args: string[]) => runNode(cliPath('hub-admin'), args, { ...hub.env, [UNSET]: undefined });
  const minted = await admin('tokens', 'mint', '--all', '--label', 'issue-43');
  t.equal(minted.code, 0, `hub-admin tokens mint needs no server's secret: ${minted.stderr}`);
  const token = minted.stdout.trim();

  const client = await connectClient(t, `${hub.url}/hub`, '2026-07-28', { authorization: `Bearer ${token}` });
  const listed = await client.callTool({ name: 'list_servers', arguments: {} });
  const servers = (listed.structuredContent as { servers: { name: string; status: string; reason?: string }[] }).servers;
  const needy = servers.find((server) => server.name === 'needy');
  t.equal(needy?.status, 'down', 'the server naming the unset variable is down');
  t.match(needy?.reason, new RegExp(`environment variable ${UNSET} is not set \\(used at mcpServers\\.needy\\.env\\.TOKEN\\)`), 'naming the variable and where');
  t.ok(
    servers.some((server) => server.name === 'good'),
    'the other server is listed',
  );

  const good = await connectClient(t, `${hub.url}/good/mcp`, '2025-11-25', { authorization: `Bearer ${token}` });
  t.ok(
    (await good.listTools()).tools.some((tool) => tool.name === 'add_tool'),
    'and serves',
  );
  const refused = await client.callTool({ name: 'call_tool', arguments: { server: 'needy', tool: 'add_tool', arguments: {} } });
  t.ok(refused.isError, 'a call for the down server is a tool error');
  t.match(JSON.stringify(refused.content), new RegExp(UNSET), 'naming the variable');

  const checked = await runNode(cliPath('hub'), ['check'], { ...hub.env, [UNSET]: undefined });
  t.match(checked.stdout, new RegExp(`problem\\s+needy\\s.*environment variable ${UNSET} is not set`), `hub check names it: ${checked.stdout}`);
  t.match(checked.stdout, /ok\s+good\s/, 'and finds the other server fine');
});
