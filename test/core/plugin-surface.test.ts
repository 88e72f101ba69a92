import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The plugin contract: a plugin, built-in or third-party, reaches the kernel only through
// the published surface (core/plugin-api.ts, `mcp-switchyard/plugin`), never another
// plugin's files; the kernel imports no plugin.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SURFACE = join(root, 'core', 'plugin-api.js');

async function sources(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(root, folder), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

/** The relative module specifiers of a file's static imports, re-exports and dynamic imports. */
async function relativeImports(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((match) => resolve(dirname(file), match[1] as string));
}

t.test('plugins import the kernel only through the plugin surface, and no other plugin', async (t) => {
  const problems: string[] = [];
  for (const file of await sources('plugins')) {
    const own = join(root, 'plugins', relative(join(root, 'plugins'), file).split(sep)[0] as string);
    for (const target of await relativeImports(file)) {
      if (target.startsWith(own + sep) || target === SURFACE) continue;
      problems.push(`${relative(root, file)} imports ${relative(root, target)}`);
    }
  }
  t.same(problems, [], 'every relative import stays in the plugin or names core/plugin-api.js');
});

t.test('the kernel imports no plugin', async (t) => {
  const problems: string[] = [];
  for (const file of await sources('core')) {
    for (const target of await relativeImports(file)) {
      if (target.startsWith(join(root, 'plugins') + sep)) problems.push(`${relative(root, file)} imports ${relative(root, target)}`);
    }
  }
  t.same(problems, []);
});
