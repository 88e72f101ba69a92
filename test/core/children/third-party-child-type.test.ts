import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startHub, tempDir, waitFor } from './helpers.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * A folder laid out as a user's: the example plugin installed under its package name, the
 * hub (this checkout) as `mcp-switchyard`, and the SDK and TypeBox the example peers on.
 */
async function installedExample(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const directory = await tempDir(t);
  const modules = join(directory, 'node_modules');
  mkdirSync(modules);
  cpSync(join(repo, 'examples', 'third-party-child-type'), join(modules, 'hub-child-type-canned'), { recursive: true });
  symlinkSync(repo, join(modules, 'mcp-switchyard'));
  for (const peer of ['@modelcontextprotocol', 'typebox']) symlinkSync(join(repo, 'node_modules', peer), join(modules, peer));
  return directory;
}

t.test('a plugin packaged on its own adds a child type, loaded by package name from a config file', async (t) => {
  const directory = await installedExample(t);
  const configFile = join(directory, 'mcp.json');
  await writeFile(configFile, JSON.stringify({ plugins: { 'hub-child-type-canned': true }, mcpServers: { faq: { type: 'canned', title: 'FAQ', tools: { opening_hours: '9 to 5' } } } }));
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
  const directory = await installedExample(t);
  const configFile = join(directory, 'mcp.json');
  await writeFile(configFile, JSON.stringify({ plugins: { 'hub-child-type-canned': true }, mcpServers: { faq: { type: 'canned', tools: { ok: 3 } } } }));
  await t.rejects(startHub(t, { config: undefined, env: { HUB_CONFIG: configFile } }), { code: 'HUB_ERR_CONFIG_INVALID', message: /server "faq": key "tools/ });
});
