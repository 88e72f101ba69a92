import { fileURLToPath } from 'node:url';
import t from 'tap';
import { Type } from 'typebox';
import { orderByDependencies } from '../../core/plugins/order.js';
import { readBuiltinManifests } from '../../core/plugins/resolve.js';
import { definePlugin, type HubPlugin } from '../../core/plugin.js';
import { Registry } from '../../core/registry.js';
import { startTestHub } from '../helpers/hub.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));

const plugin = (name: string, dependencies: string[] = []) => definePlugin({ name, description: name, dependencies, options: Type.Object({}), register() {} });

t.test('plugins come after their dependencies and keep their order otherwise', async (t) => {
  const ordered = orderByDependencies([plugin('meta', ['era']), plugin('store'), plugin('era', ['store'])]);
  t.same(
    ordered.map((p) => p.name),
    ['store', 'era', 'meta'],
  );
});

t.test('third-party plugins load by path relative to the config, with defaults applied and routes under the hub', async (t) => {
  const { url } = await startTestHub(t, {
    config: { plugins: { [`${fixtures}after-greeter.js`]: true, [`${fixtures}greeter.js`]: { greeting: 'ciao', repeat: 2 } } },
  });
  t.same(await (await fetch(`${url}/greeting`)).json(), { text: 'ciao ciao' });
  t.same(await (await fetch(`${url}/order`)).json(), { registeredAfter: true }, 'a dependency is registered first, whatever the config order');
});

t.test('a plugin set to false is not loaded', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { [`${fixtures}greeter.js`]: false } } });
  t.equal((await fetch(`${url}/greeting`)).status, 404);
});

t.test('registries refuse a name registered twice, naming both owners', async (t) => {
  const registry = new Registry<number>('meta-tool');
  registry.add('list_servers', 1, 'meta-tools');
  t.throws(() => registry.add('list_servers', 2, 'other'), {
    code: 'HUB_ERR_REGISTERED_TWICE',
    message: 'meta-tool "list_servers" is registered twice (by meta-tools and by other)',
  });
  t.same(registry.names(), ['list_servers']);
  t.same(registry.values(), [1]);
  t.ok(registry.has('list_servers'));
});

t.test("every built-in plugin's manifest says what its plugin says, so that the hub can choose before importing", async (t) => {
  const builtins = fileURLToPath(new URL('../../plugins/', import.meta.url));
  const manifests = await readBuiltinManifests(builtins);
  t.ok(manifests.size >= 11, `the built-in plugins were found (${manifests.size})`);
  const contexts = [
    { env: {}, configured: false },
    { env: {}, configured: true },
    { env: { MCP_DIAGNOSTICS: 'true' }, configured: true },
  ];
  const enabled = (value: HubPlugin['enabledByDefault'], env: NodeJS.ProcessEnv, configured: boolean) => (typeof value === 'function' ? value(env, { configured }) : value !== false);
  for (const [name, builtin] of manifests) {
    const plugin = await builtin.load();
    t.equal(plugin.name, name, `${name}: the name`);
    t.equal(plugin.description, builtin.manifest.description, `${name}: the description`);
    for (const { env, configured } of contexts) {
      t.equal(enabled(plugin.enabledByDefault, env, configured), enabled(builtin.manifest.enabledByDefault, env, configured), `${name}: on by default ${JSON.stringify({ env, configured })}`);
    }
  }
});

// Issue 60, item 5: a plugin with no options leaves `options` out (an empty object schema
// stands in: `true` enables it, an unknown option is refused); a wrong one is refused by
// definePlugin at once, not at `hub check`.
t.test('a plugin without options needs no options schema', async (t) => {
  const { hub } = await startTestHub(t, { config: { plugins: { [`${fixtures}optionless.js`]: true } } });
  t.ok(hub.metaTools.get('optionless_options'), 'it registered');
  await t.rejects(startTestHub(t, { config: { plugins: { [`${fixtures}optionless.js`]: { colour: 'red' } } } }), /optionless.*colour/s, 'an option it does not take is refused');
  t.throws(
    () => definePlugin({ name: 'wrong', description: 'wrong', options: 'none' as never, register() {} }),
    /plugin "wrong": options must be a TypeBox schema/,
    'a wrong options is refused at once',
  );
  const bare: HubPlugin = definePlugin({ name: 'bare', description: 'bare', register() {} });
  t.same(bare.options, Type.Object({}, { additionalProperties: false }), 'the stand-in is the empty object schema');
});
