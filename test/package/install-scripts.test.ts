import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// Issue 43, item 15: npm 11 warns of every dependency whose install script no
// `allowScripts` entry reviews (and npm 12 blocks them). Every one in the lockfile is
// reviewed in package.json, so `npm ci` warns of nothing.

const root = fileURLToPath(new URL('../../../', import.meta.url));

t.test('every dependency with an install script is reviewed in allowScripts', async (t) => {
  const lock = JSON.parse(await readFile(`${root}package-lock.json`, 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  const manifest = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as { allowScripts?: Record<string, boolean> };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  t.ok(withScripts.length > 0, 'the lockfile has dependencies with install scripts (dockerode brings ssh2 and cpu-features)');
  for (const name of withScripts) t.type(manifest.allowScripts?.[name], 'boolean', `${name} is reviewed`);
});
