import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { collectSchemas, serializeSchema } from '../../core/schemas.js';

const committed = fileURLToPath(new URL('../../../schemas/', import.meta.url));

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

t.test('the committed schemas/ are exactly what the code generates (run `npm run schemas`)', async (t) => {
  const generated = await collectSchemas();
  t.ok(generated.has('config.json'));
  t.same((await filesUnder(committed)).sort(), [...generated.keys()].sort(), 'the same files');
  for (const [path, schema] of generated) {
    t.equal(await readFile(join(committed, path), 'utf8'), serializeSchema(schema), `${path} is up to date`);
  }
});
