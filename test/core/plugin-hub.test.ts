import { fileURLToPath } from 'node:url';
import t from 'tap';
import { Hub } from '../../core/hub.js';
import { createKitchenSink } from '../fixtures/servers/kitchen-sink.js';
import { handed } from '../fixtures/plugins/probe.js';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { startTestHub } from '../helpers/hub.js';

// What a plugin is handed is made for plugins: no kernel object, registrations in its
// own name, and a service only one plugin may provide refused to a second.
const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
const KERNEL_MEMBERS = ['children', 'reservedPaths', 'serverKeys', 'identity', 'questions', 'operatorLoginUsed', 'listenWork'];
// `refreshTools` is on the view on purpose: a plugin composing other servers' tools asks a running server to read its list again (docs/plugins.md).
const LIFECYCLE_MEMBERS = ['drain', 'disconnect', 'adoptSnapshot', 'supervisor', 'touch', 'childType', 'view'];

t.test('a plugin is handed a PluginHub, never the kernel or its children', async (t) => {
  const { hub: kernel } = await startTestHub(t, {
    kernel: (hub) => void hub.children.addInProcess('sink', createKitchenSink),
    config: { plugins: { [`${fixtures}probe.js`]: true, 'map-tools': false } },
  });
  const hub = handed.hub;
  if (!hub) throw new Error('the probe plugin was not registered');
  t.notOk(hub instanceof Hub, 'not the kernel class');
  t.equal(hub.plugin, 'probe', 'made for the plugin, in whose name it registers');
  t.same(
    KERNEL_MEMBERS.filter((member) => member in hub),
    [],
    'no kernel member is reachable',
  );
  const view = hub.servers.get('sink');
  if (!view) throw new Error('the sink is not configured');
  t.equal(hub.servers.get('sink'), view, 'a server is one view for its life');
  t.same(
    LIFECYCLE_MEMBERS.filter((member) => member in view),
    [],
    'and the view has none of the lifecycle',
  );
  t.not(view, kernel.children.get('sink'), 'the view is not the kernel’s child');
  t.same(
    hub.servers.list().map((server) => server.name),
    ['sink'],
  );
  t.equal(view.status, kernel.children.get('sink')?.status, 'it reads the child it shows');
});

t.test("a meta-tool's arguments get its schema's defaults, and are checked against it, on both revisions", async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { [`${fixtures}probe.js`]: { echoArguments: true }, 'map-tools': false } } });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    const text = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      return { isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0]?.text };
    };
    t.same(await text('echo_defaults', { word: 'hi' }), { isError: false, text: JSON.stringify({ word: 'hi', times: 3 }) }, `${revision}: a missing argument gets its default`);
    t.same(await text('echo_defaults', { word: 'hi', times: 5 }), { isError: false, text: JSON.stringify({ word: 'hi', times: 5 }) }, `${revision}: a given one is kept`);
    t.same(await text('echo_plain', { word: 'hi' }), { isError: false, text: JSON.stringify({ word: 'hi' }) }, `${revision}: a schema without defaults adds nothing`);
    t.match(await text('echo_plain', { times: 'many' }), { isError: true, text: /Invalid arguments for echo_plain: "times": expected/ }, `${revision}: and the arguments are still checked`);
  }
});

t.test('a name another plugin registered is refused, naming both plugins', async (t) => {
  await t.rejects(startTestHub(t, { config: { plugins: { [`${fixtures}probe.js`]: { metaTool: 'list_servers' }, 'map-tools': false } } }), {
    code: 'HUB_ERR_REGISTERED_TWICE',
    message: /meta-tool "list_servers" is registered twice \(by meta-tools and by probe\)/,
  });
});

t.test('a second provider of a single-provider service fails start-up, naming both plugins', async (t) => {
  await t.rejects(startTestHub(t, { env: { HUB_PASSWORD: 'pw' }, config: { plugins: { 'oauth-as': true, [`${fixtures}second-authenticator.js`]: true, 'map-tools': false } } }), {
    name: 'StartupError',
    code: 'HUB_ERR_SLOT_TAKEN',
    message: /by plugin "oauth-as" and by plugin "second-authenticator"/,
  });
});
