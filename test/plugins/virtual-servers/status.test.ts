import t from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { structuredMeta } from '../meta-tools/helpers.js';
import { until } from './helpers.js';

// A kit is always running; when a server it draws on is down, its status says so.

interface Listed {
  name: string;
  status: string;
  reason?: string;
}

t.test("a kit's status names a server it draws on that is down, with that server's reason", async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        changing: { command: process.execPath, args: [fixture('changing-tools')] },
        broken: { command: process.execPath, args: ['-e', 'process.stderr.write("no database here\\n"); process.exit(3)'] },
        kit: {
          type: 'virtual',
          tools: [
            { server: 'changing', tool: '*', prefix: 'c_' },
            { server: 'broken', tool: '*', prefix: 'b_' },
          ],
        },
      },
    },
  });
  await hub.children.get('changing')?.ensureUp();
  t.ok(await until(() => hub.children.get('kit')?.status === 'up'), 'the kit is up');
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  const kitOf = async () => ((await structuredMeta(t, client, 'list_servers')).servers as Listed[]).find((server) => server.name === 'kit');
  t.equal((await kitOf())?.reason, undefined, 'nothing is said while no server it draws on is down (one asleep is not)');

  await hub.children
    .get('broken')
    ?.ensureUp()
    .catch(() => undefined);
  t.equal(hub.children.get('broken')?.status, 'down', 'the broken server is down');
  for (const revision of REVISIONS) {
    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const kit = ((await structuredMeta(t, hubClient, 'list_servers')).servers as Listed[]).find((server) => server.name === 'kit');
    t.equal(kit?.status, 'up', `${revision}: the kit itself is still up`);
    t.match(kit?.reason, /"broken" is down/, `${revision}: its reason names the server that is down`);
    t.match(kit?.reason, /exit|no database here/, `${revision}: with that server's own reason`);
  }
  const health = (await (await fetch(`${url}/health`)).json()) as { reasons?: Record<string, string> };
  t.match(health.reasons?.kit, /"broken" is down/, '/health gives the reason too');
});
