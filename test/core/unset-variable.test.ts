import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { checkConfig, formatReport } from '../../core/cli/check.js';
import { startHub } from '../../core/server.js';
import { fixture } from './children/helpers.js';
import { adminBeside } from '../helpers/admin.js';
import { connectClient } from '../helpers/clients.js';
import { freePort } from '../helpers/net.js';

// Issue 43, item 13: one server's unset ${VAR} takes down that server only, naming the
// variable (hub check, list_servers), the others run, and hub-admin needs none of it.

const UNSET = 'HUB43_NEVER_SET_TOKEN';
const child = () => ({ command: process.execPath, args: [fixture('changing-tools')] });

t.test('an unset variable in one entry: that server is down naming it, the others serve', async (t) => {
  // The hub, hub-admin and hub check run in this process (what each makes of the config is
  // the subject; their processes are other files'), on one environment that is all they
  // read, so the variable is unset whatever the test's own environment holds.
  const folder = await mkdtemp(join(tmpdir(), 'unset-variable-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: url,
    HUB_CONFIG: join(folder, 'mcp.json'),
    DATA_PATH: join(folder, 'data'),
    HUB_PASSWORD: 'a-password-for-the-test',
    LOG_LEVEL: 'silent',
  };
  await writeFile(env.HUB_CONFIG, JSON.stringify({ mcpServers: { good: child(), needy: { ...child(), env: { TOKEN: `\${${UNSET}}` } } }, plugins: { 'map-tools': false } }));
  const started = await startHub(env);
  t.teardown(() => started.close());
  const minted = await adminBeside(env)('tokens', 'mint', '--all', '--label', 'issue-43');
  t.equal(minted.code, 0, `hub-admin tokens mint needs no server's secret: ${minted.stderr}`);
  const token = minted.stdout.trim();

  const client = await connectClient(t, `${url}/hub`, '2026-07-28', { authorization: `Bearer ${token}` });
  const listed = await client.callTool({ name: 'list_servers', arguments: {} });
  const servers = (listed.structuredContent as { servers: { name: string; status: string; reason?: string }[] }).servers;
  const needy = servers.find((server) => server.name === 'needy');
  t.equal(needy?.status, 'down', 'the server naming the unset variable is down');
  t.match(needy?.reason, new RegExp(`environment variable ${UNSET} is not set \\(used at mcpServers\\.needy\\.env\\.TOKEN\\)`), 'naming the variable and where');
  t.ok(
    servers.some((server) => server.name === 'good'),
    'the other server is listed',
  );

  const good = await connectClient(t, `${url}/good/mcp`, '2025-11-25', { authorization: `Bearer ${token}` });
  t.ok(
    (await good.listTools()).tools.some((tool) => tool.name === 'add_tool'),
    'and serves',
  );
  const refused = await client.callTool({ name: 'call_tool', arguments: { server: 'needy', tool: 'add_tool', arguments: {} } });
  t.ok(refused.isError, 'a call for the down server is a tool error');
  t.match(JSON.stringify(refused.content), new RegExp(UNSET), 'naming the variable');

  const checked = formatReport(await checkConfig(env, false));
  t.match(checked, new RegExp(`problem\\s+needy\\s.*environment variable ${UNSET} is not set`), `hub check names it: ${checked}`);
  t.match(checked, /ok\s+good\s/, 'and finds the other server fine');
});
