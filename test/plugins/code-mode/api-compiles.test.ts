import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { MONACO_PBF } from '../map-tools/offline/extract.js';
import { textOf } from './helpers.js';

const require = createRequire(import.meta.url);
const tsc = join(require.resolve('typescript/package.json'), '..', 'bin', 'tsc');
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

/** Runs `tsc --strict` on the files of `folder`; the exit code and what it said. */
async function compile(folder: string, files: string[]): Promise<{ code: number; output: string }> {
  try {
    await promisify(execFile)(
      'env',
      [
        '-u',
        'NODE_OPTIONS',
        process.execPath,
        tsc,
        '--strict',
        '--noEmit',
        '--target',
        'es2022',
        '--lib',
        'es2022',
        '--types',
        '',
        '--skipLibCheck',
        'false',
        ...files.map((file) => join(folder, file)),
      ],
      {
        // Without the loaders the test runner puts in every Node child's NODE_OPTIONS, as a user's shell runs tsc.
        env: { PATH: process.env.PATH ?? '' },
        cwd: folder,
      },
    );
    return { code: 0, output: '' };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/*
 * The declarations get_code_api writes for real tool schemas (server-everything's and
 * the map server's) compile under `tsc --strict`, and a program typed against them does
 * too, while one that passes a wrong argument does not: the types say something.
 */
t.test('the code API of server-everything and the map tools compiles under tsc --strict', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { everything }, plugins: { 'map-tools': true, 'code-mode': true } },
    env: { MAP_OSM_FILE: MONACO_PBF },
  });
  await Promise.all(['everything', 'map'].map((name) => hub.children.get(name)!.ensureUp()));
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    const api = textOf(await client.callTool({ name: 'get_code_api', arguments: {} }));
    t.match(api, 'declare namespace everything {', `${revision}: server-everything's namespace`);
    t.match(api, 'declare namespace map {', `${revision}: the map server's`);
    t.match(api, /"get-sum"\(args: everything\.GetSumInput\)/, `${revision}: a tool name that is not an identifier is quoted`);
    t.match(api, /geocode\(args: map\.GeocodeInput\): Promise<map\.GeocodeOutput>/, `${revision}: the map tools are typed`);
    t.notMatch(api, /GeocodeOutput = (unknown|string);/, `${revision}: an output schema gives a type`);

    const folder = await mkdtemp(join(tmpdir(), 'code-api-'));
    await writeFile(join(folder, 'api.d.ts'), api);
    await writeFile(
      join(folder, 'program.ts'),
      `export async function program(): Promise<unknown> {
  const sum = await servers.everything['get-sum']({ a: 2, b: 3 });
  const found = await servers.map.geocode({ query: 'Monaco' });
  console.log(sum.length, found);
  return found;
}
`,
    );
    const good = await compile(folder, ['api.d.ts', 'program.ts']);
    t.equal(good.code, 0, `${revision}: the declarations and a program against them compile: ${good.output}`);
    await writeFile(join(folder, 'wrong.ts'), "export const wrong = () => servers.everything['get-sum']({ a: 'two', b: 3 });\n");
    const wrong = await compile(folder, ['api.d.ts', 'wrong.ts']);
    t.not(wrong.code, 0, `${revision}: a wrong argument type does not`);
    t.match(wrong.output, /wrong\.ts\(1,\d+\): error TS2322/, `${revision}: tsc names it`);
  }
});
