import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startHub, tempDir, waitFor } from './helpers.js';

const example = fileURLToPath(new URL('../../../../examples/third-party-child-type/index.js', import.meta.url));

t.test('a separately packaged plugin adds a child type, loaded by path from a config file', async (t) => {
  const directory = await tempDir(t);
  const configFile = join(directory, 'mcp.json');
  await writeFile(
    configFile,
    JSON.stringify({
      plugins: { [relative(directory, example)]: true },
      mcpServers: { faq: { type: 'canned', title: 'FAQ', tools: { opening_hours: '9 to 5' } } },
    }),
  );
  const { hub } = await startHub(t, { config: undefined, env: { HUB_CONFIG: configFile } });
  t.ok(hub.childTypes.has('canned'), 'the type is registered');
  const faq = hub.children.get('faq');
  if (!faq) throw new Error('no child');
  await waitFor('the canned server to be up', () => faq.status === 'up');
  t.equal(faq.description, 'FAQ');
  const result = await faq.withClient((client) => client.callTool({ name: 'opening_hours', arguments: {} }));
  t.same(result.content, [{ type: 'text', text: '9 to 5' }]);
});

t.test('an entry that does not fit the type schema fails start-up naming the key', async (t) => {
  const directory = await tempDir(t);
  const configFile = join(directory, 'mcp.json');
  await writeFile(configFile, JSON.stringify({ plugins: { [example]: true }, mcpServers: { faq: { type: 'canned', tools: { ok: 3 } } } }));
  await t.rejects(startHub(t, { config: undefined, env: { HUB_CONFIG: configFile } }), /server "faq": key "tools/);
});
