import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { documentationPages, readPage, root, type CodeBlock, type MarkdownPage } from './markdown.js';

// Issue 41: the docs are checked like code. Every relative link and anchor of the README,
// CONTRIBUTING.md, docs/ and the plugins' READMEs resolves; every block marked as a command,
// JSON, YAML, JavaScript or TypeScript parses (and a command's `node dist/…` and `npm run …`
// exist); the README stays a short way in from which each of a newcomer's tasks is at most
// two clicks away. Pages are found, not listed: a plugin added later is checked too.

const run = promisify(execFile);
const paths = await documentationPages();
const pages = new Map<string, MarkdownPage>();
for (const path of paths) pages.set(path, await readPage(path));

/** Where a relative link of `from` points: a repository path (forward slashes) and an anchor. */
function target(from: string, href: string): { path: string; anchor: string | undefined } {
  const [file, anchor] = href.split('#', 2) as [string, string | undefined];
  const path =
    file === ''
      ? from
      : normalize(join(dirname(from), decodeURIComponent(file)))
          .split('\\')
          .join('/');
  return { path: path.replace(/\/$/, ''), anchor: anchor === undefined ? undefined : decodeURIComponent(anchor) };
}

const isRelative = (href: string) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//');

t.test('the pages are found: README, CONTRIBUTING, docs/ and every plugin README', async (t) => {
  t.ok(paths.includes('README.md') && paths.includes('CONTRIBUTING.md'));
  t.ok(paths.filter((path) => path.startsWith('docs/')).length >= 20, 'the pages under docs/');
  t.ok(paths.filter((path) => /^plugins\/[^/]+\/README\.md$/.test(path)).length >= 12, 'a README per plugin');
});

t.test('every relative link resolves, and every anchor names a heading of its page', async (t) => {
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages.values()) {
    for (const link of page.links) {
      if (!isRelative(link.href)) continue;
      checked++;
      const { path, anchor } = target(page.path, link.href);
      if (relative(root, join(root, path)).startsWith('..')) {
        problems.push(`${page.path}:${link.line}: ${link.href} leaves the repository`);
        continue;
      }
      if (!existsSync(join(root, path))) {
        problems.push(`${page.path}:${link.line}: ${link.href}: no ${path}`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (!path.endsWith('.md') || statSync(join(root, path)).isDirectory()) {
        // GitHub's line anchors (#L10) of source files are left to GitHub.
        if (!/^L\d+(-L\d+)?$/.test(anchor)) problems.push(`${page.path}:${link.line}: ${link.href}: an anchor into a file that is not Markdown`);
        continue;
      }
      const linked = pages.get(path) ?? (await readPage(path));
      if (!linked.anchors.has(anchor)) problems.push(`${page.path}:${link.line}: ${link.href}: ${path} has no heading #${anchor}`);
    }
  }
  t.ok(checked > 150, `${checked} relative links checked`);
  t.same(problems, []);
});

const blocks = [...pages.values()].flatMap((page) => page.blocks.map((block) => ({ page: page.path, ...block })));
const where = (block: CodeBlock & { page: string }) => `${block.page}:${block.line}`;
const ofLanguage = (...languages: string[]) => blocks.filter((block) => languages.includes(block.language));

t.test('every JSON block parses', async (t) => {
  const json = ofLanguage('json');
  t.ok(json.length >= 10, `${json.length} blocks`);
  for (const block of json) t.doesNotThrow(() => JSON.parse(block.text) as unknown, where(block));
});

t.test('every YAML block parses', async (t) => {
  const yaml = ofLanguage('yaml', 'yml');
  t.ok(yaml.length >= 1, `${yaml.length} blocks`);
  for (const block of yaml)
    t.same(
      parseAllDocuments(block.text).flatMap((document) => ('errors' in document ? document.errors.map((error) => error.message) : [])),
      [],
      where(block),
    );
});

t.test('every command block is valid shell, and the scripts and files it runs exist', async (t) => {
  const commands = ofLanguage('sh', 'bash', 'shell');
  t.ok(commands.length >= 10, `${commands.length} blocks`);
  const { scripts } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  for (const block of commands) {
    const syntax = await run('bash', ['-n', '-c', block.text]).then(
      () => '',
      (error: unknown) => (error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error)),
    );
    t.equal(syntax, '', `${where(block)}: bash -n`);
    for (const match of block.text.matchAll(/\bnpm run ([\w:-]+)/g)) t.ok(scripts[match[1] as string], `${where(block)}: npm run ${match[1]} is a script of package.json`);
    for (const match of block.text.matchAll(/\bnode (?:--[\w-]+ )*(dist\/[\w/.-]+|examples\/[\w/.-]+)/g)) {
      const file = match[1] as string;
      const source = file.startsWith('dist/') ? file.replace(/^dist\//, '').replace(/\.js$/, '.ts') : file;
      t.ok(existsSync(join(root, source)), `${where(block)}: node ${file} (${source} exists)`);
    }
  }
});

t.test('every JavaScript block passes node --check', async (t) => {
  const scripts = ofLanguage('js', 'javascript', 'mjs');
  t.ok(scripts.length >= 3, `${scripts.length} blocks`);
  const folder = await mkdtemp(join(tmpdir(), 'docs-js-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  for (const [index, block] of scripts.entries()) {
    const file = join(folder, `block-${index}.mjs`);
    await writeFile(file, block.text);
    const outcome = await run(process.execPath, ['--check', file]).then(
      () => '',
      (error: unknown) => (error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error)),
    );
    t.equal(outcome, '', where(block));
  }
});

t.test('every TypeScript block compiles without a syntax error', async (t) => {
  const typescript = ofLanguage('ts', 'typescript');
  t.ok(typescript.length >= 2, `${typescript.length} blocks`);
  const folder = await mkdtemp(join(tmpdir(), 'docs-ts-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  // The blocks are ES modules, as the project's own code is; without this, where tsc meets
  // no package.json above the folder it reads them as CommonJS (top-level await refused).
  await writeFile(join(folder, 'package.json'), '{ "type": "module" }\n');
  for (const [index, block] of typescript.entries()) await writeFile(join(folder, `block-${index}.ts`), block.text);
  // A block is an excerpt: its names come from the page around it, so only what the
  // parser reports (TS1xxx) counts, not unresolved names or types.
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const parse = async (files: string[]): Promise<Array<{ file: string; line: number; error: string }>> => {
    const output = await run(process.execPath, [tsc, '--noEmit', '--noResolve', '--ignoreConfig', '--pretty', 'false', '--target', 'es2022', '--module', 'nodenext', ...files], { cwd: folder }).then(
      ({ stdout }) => stdout,
      (error: unknown) => (error instanceof Error && 'stdout' in error ? String(error.stdout) : String(error)),
    );
    return [...output.matchAll(/^(block-\d+(?:-body)?\.ts)\((\d+),\d+\): error (TS1\d{3}: .*)$/gm)].map((match) => ({ file: match[1] as string, line: Number(match[2]), error: match[3] as string }));
  };
  const asModules = await parse(typescript.map((_, index) => `block-${index}.ts`));
  // A block with a top-level `return` is a function's body (a code-mode program): it is
  // parsed again as the body of an async function, and only what that reports counts.
  const bodies = new Set(asModules.filter(({ error }) => error.startsWith('TS1108:')).map(({ file }) => Number(/\d+/.exec(file)?.[0])));
  for (const index of bodies) await writeFile(join(folder, `block-${index}-body.ts`), `export async function body() {\n${typescript[index]?.text ?? ''}\n}\n`);
  const asBodies = bodies.size === 0 ? [] : await parse([...bodies].map((index) => `block-${index}-body.ts`));
  const syntaxErrors = [...asModules.filter(({ file }) => !bodies.has(Number(/\d+/.exec(file)?.[0]))), ...asBodies.map((found) => ({ ...found, line: found.line - 1 }))].map(
    ({ file, line, error }) => `${where(typescript[Number(/\d+/.exec(file)?.[0])] as CodeBlock & { page: string })} +${line}: ${error}`,
  );
  t.same(syntaxErrors, []);
});

t.test('the README is a short way in', async (t) => {
  const readme = pages.get('README.md') as MarkdownPage;
  t.ok(Buffer.byteLength(readme.text) <= 15 * 1024, `at most 15 KB (${Buffer.byteLength(readme.text)} bytes)`);
  t.equal(readme.headings[1], 'First call', 'the first section is the first call');
  const commands = ofLanguage('sh')
    .filter((block) => block.page === 'README.md')
    .map((block) => block.text);
  t.ok(
    commands.some((text) => /^npm start\b/m.test(text)),
    'the command to run: npm start',
  );
  t.ok(
    commands.some((text) => /^npm test\b/m.test(text)),
    'the command to test: npm test',
  );
  t.ok(
    readme.links.some((link) => link.href === 'CONTRIBUTING.md'),
    'it links CONTRIBUTING.md',
  );
  for (const folder of ['configuration', 'deployment', 'security', 'operations', 'reference', 'extending', 'internals']) {
    t.ok(
      readme.links.some((link) => link.href.startsWith(`docs/${folder}/`)),
      `its map reaches docs/${folder}/`,
    );
  }
});

t.test("every plugin has a README, and the README's plugin list links each", async (t) => {
  const readme = pages.get('README.md') as MarkdownPage;
  const folders = (await readdir(join(root, 'plugins'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  t.ok(folders.length >= 12, `${folders.length} plugin folders`);
  for (const folder of folders) {
    const plugin = `plugins/${folder}/README.md`;
    t.ok(paths.includes(plugin), `${plugin} exists`);
    t.ok(
      readme.links.some((link) => link.href === plugin),
      `README links ${plugin}`,
    );
  }
});

// A newcomer's tasks (issue 41), each answered on a page at most two clicks from the README.
const TASKS: Record<string, string> = {
  'connect Claude Code to the hub': 'docs/getting-started.md#connect-a-client-over-http',
  'add a stdio server': 'docs/configuration/servers.md#server-types',
  'run two replicas': 'docs/deployment/replicas.md',
  'rotate the operator password': 'docs/security/access.md#rotate-the-operator-password',
  'see why a tool call failed': 'docs/operations/troubleshooting.md#a-tool-call-failed-why',
  'write a child-type plugin': 'docs/plugins.md#walk-through-a-child-type-published-on-its-own',
  'embed the hub in a Fastify app': 'docs/extending/embedding.md',
};

t.test("a newcomer's tasks are at most two clicks from the README", async (t) => {
  const clicks = new Map<string, number>([['README.md', 0]]);
  let frontier = ['README.md'];
  for (let depth = 1; depth <= 2; depth++) {
    const next: string[] = [];
    for (const from of frontier) {
      for (const link of pages.get(from)?.links ?? []) {
        if (!isRelative(link.href)) continue;
        const { path } = target(from, link.href);
        if (!clicks.has(path) && pages.has(path)) {
          clicks.set(path, depth);
          next.push(path);
        }
      }
    }
    frontier = next;
  }
  for (const [task, answer] of Object.entries(TASKS)) {
    const { path, anchor } = target('README.md', answer);
    t.ok((clicks.get(path) ?? Infinity) <= 2, `${task}: ${path} within two clicks (${clicks.get(path)})`);
    if (anchor) t.ok(pages.get(path)?.anchors.has(anchor), `${task}: ${path} has #${anchor}`);
  }
});

t.test('one architecture diagram and one settings table', async (t) => {
  const diagrams = blocks.filter((block) => block.language === 'mermaid' && block.text.includes('PluginHub'));
  t.same(
    diagrams.map((block) => block.page),
    ['docs/internals/architecture.md'],
    'the kernel-and-plugins diagram is on one page',
  );
  // A plugin's README may table that plugin's own variables; the hub's are tabled once.
  const settingsTables = [...pages.values()].filter((page) => !page.path.startsWith('plugins/') && /^\| Variable \|/m.test(page.text)).map((page) => page.path);
  t.same(settingsTables, ['docs/reference/environment.md'], 'the environment variables are tabled once');
});
