import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { SyntaxKind, type Node, type SourceFile } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

// The plugin contract, read from the sources as the TypeScript compiler parses them (no
// quote-sensitive pattern): a plugin, built-in or third-party, reaches the kernel only
// through the published surface (core/plugin/, `mcp-switchyard/plugin[/<role>]`), never
// another plugin's files; the kernel imports no plugin and names no revision's
// mechanics; every name the surface exports is used by a built-in plugin or documented.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SURFACE = join(root, 'core', 'plugin') + sep;

const api = new API({ cwd: root });
const program = api.updateSnapshot({ openProject: join(root, 'tsconfig.json') }).getProjects()[0]?.program;
t.teardown(() => api.close());
if (!program) throw new Error('the TypeScript project did not load');

/** The project's source files under `folder`, parsed. */
function sources(folder: string): SourceFile[] {
  const prefix = join(root, folder) + sep;
  return program!
    .getSourceFileNames()
    .filter((name) => name.startsWith(prefix) && !name.endsWith('.d.ts'))
    .map((name) => program!.getSourceFile(name) as SourceFile);
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  node.forEachChild((child) => {
    walk(child, visit);
  });
}

function literalText(node: Node | undefined): string | undefined {
  return node?.kind === SyntaxKind.StringLiteral || node?.kind === SyntaxKind.NoSubstitutionTemplateLiteral ? (node as unknown as { text: string }).text : undefined;
}

/** Every module a file names: static imports and re-exports, dynamic `import()`, and `import('…')` types. */
function moduleSpecifiers(file: SourceFile): string[] {
  const found: string[] = [];
  walk(file, (node) => {
    let specifier: string | undefined;
    if (node.kind === SyntaxKind.ImportDeclaration || node.kind === SyntaxKind.ExportDeclaration) specifier = literalText((node as unknown as { moduleSpecifier?: Node }).moduleSpecifier);
    else if (node.kind === SyntaxKind.CallExpression) {
      const call = node as unknown as { expression: Node; arguments: readonly Node[] };
      if (call.expression.kind === SyntaxKind.ImportKeyword) specifier = literalText(call.arguments[0]);
    } else if (node.kind === SyntaxKind.ImportType) specifier = literalText((node as unknown as { argument: { literal?: Node } }).argument.literal);
    if (specifier !== undefined) found.push(specifier);
  });
  return found;
}

function relativeTargets(file: SourceFile): string[] {
  return moduleSpecifiers(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file.fileName), specifier).replace(/\.js$/, '.ts'));
}

t.test('plugins import the kernel only through the plugin surface, and no other plugin', async (t) => {
  const problems: string[] = [];
  const files = sources('plugins');
  t.ok(files.length > 50, `the built-in plugins were parsed (${files.length} files)`);
  for (const file of files) {
    const own = join(root, 'plugins', relative(join(root, 'plugins'), file.fileName).split(sep)[0] as string) + sep;
    for (const target of relativeTargets(file)) {
      if (target.startsWith(own) || target.startsWith(SURFACE)) continue;
      problems.push(`${relative(root, file.fileName)} imports ${relative(root, target)}`);
    }
  }
  t.same(problems, [], 'every relative import stays in the plugin or names core/plugin/');
});

t.test('the kernel imports no plugin, and the surface only the kernel', async (t) => {
  const problems: string[] = [];
  for (const file of sources('core')) {
    for (const target of relativeTargets(file)) {
      if (target.startsWith(join(root, 'plugins') + sep)) problems.push(`${relative(root, file.fileName)} imports ${relative(root, target)}`);
    }
  }
  t.same(problems, []);
});

/**
 * What only a revision knows: its methods and the fields of its wire. The kernel asks the
 * revision registered for a request or a connection instead (core/revisions/revision.ts).
 */
const MECHANIC_TEXT = [/server\/discover/, /subscriptions\/listen/, /resources\/subscribe/, /\binitialize\b/, /\bresultType\b/, /\binputResponses\b/, /\brequestState\b/];
const MECHANIC_NAMES = new Set([
  'initialize',
  'resultType',
  'inputResponses',
  'requestState',
  'getProtocolEra',
  'getDiscoverResult',
  'isLegacyRequest',
  'isInitializeRequest',
  'subscribeResource',
  'discover',
  'listen',
]);

t.test('no file under core/ names a revision mechanic outside comments', async (t) => {
  const problems: string[] = [];
  for (const file of sources('core')) {
    walk(file, (node) => {
      const text = literalText(node) ?? (node.kind >= SyntaxKind.TemplateHead && node.kind <= SyntaxKind.TemplateTail ? (node as unknown as { text: string }).text : undefined);
      const where = relative(root, file.fileName);
      if (text !== undefined && MECHANIC_TEXT.some((pattern) => pattern.test(text))) problems.push(`${where}: "${text}"`);
      if (node.kind === SyntaxKind.Identifier || node.kind === SyntaxKind.PrivateIdentifier) {
        const name = (node as unknown as { text: string }).text;
        // `app.listen` is Fastify's, not the revision's listen.
        const parent = node.parent as unknown as { kind: SyntaxKind; expression?: { text?: string } } | undefined;
        const fastifyListen = name === 'listen' && parent?.kind === SyntaxKind.PropertyAccessExpression && parent.expression?.text === 'app';
        if (MECHANIC_NAMES.has(name) && !fastifyListen) problems.push(`${where}: ${name}`);
      }
    });
  }
  t.same(problems, []);
});

/** The names a surface file exports, following `export *` within the surface. */
function surfaceExports(file: SourceFile): string[] {
  const names: string[] = [];
  for (const statement of file.statements) {
    if (statement.kind !== SyntaxKind.ExportDeclaration) continue;
    const declaration = statement as unknown as { exportClause?: { elements?: readonly { name: { text: string } }[] }; moduleSpecifier?: Node };
    if (declaration.exportClause?.elements) names.push(...declaration.exportClause.elements.map((element) => element.name.text));
    else {
      const target = resolve(dirname(file.fileName), literalText(declaration.moduleSpecifier) ?? '').replace(/\.js$/, '.ts');
      if (target.startsWith(SURFACE)) names.push(...surfaceExports(program!.getSourceFile(target) as SourceFile));
    }
  }
  return names;
}

t.test('every name the surface exports is used by a built-in plugin or shown in docs/plugins.md', async (t) => {
  const surface = sources('core/plugin');
  t.same(
    surface.map((file) => relative(SURFACE, file.fileName)).sort(),
    ['auth.ts', 'child-type.ts', 'errors.ts', 'index.ts', 'interceptor.ts', 'meta-tool.ts', 'observe.ts', 'pages.ts', 'revision.ts', 'store.ts'],
    'one entry per role, and their union',
  );
  const used = new Set<string>();
  for (const file of sources('plugins')) {
    walk(file, (node) => {
      if (node.kind !== SyntaxKind.ImportSpecifier) return;
      const declaration = node.parent.parent.parent as unknown as { moduleSpecifier?: Node } | undefined;
      const target = resolve(dirname(file.fileName), literalText(declaration?.moduleSpecifier) ?? '');
      if (target.startsWith(SURFACE)) used.add((node as unknown as { name: { text: string } }).name.text);
    });
  }
  const docs = await readFile(join(root, 'docs', 'plugins.md'), 'utf8');
  const unaccounted = [...new Set(surface.flatMap(surfaceExports))].filter((name) => !used.has(name) && !new RegExp(`\\b${name}\\b`).test(docs));
  t.same(unaccounted, [], 'each is imported by a built-in plugin or named in docs/plugins.md');
});

t.test('a plugin is handed the PluginHub interface, never the kernel class', async (t) => {
  const plugin = program.getSourceFile(join(root, 'core', 'plugin.ts')) as SourceFile;
  let parameterType: string | undefined;
  walk(plugin, (node) => {
    if (node.kind !== SyntaxKind.MethodSignature || (node as unknown as { name: { text: string } }).name.text !== 'register') return;
    const parameters = (node as unknown as { parameters: readonly { type?: { typeName?: { text: string } } }[] }).parameters;
    parameterType = parameters[2]?.type?.typeName?.text;
  });
  t.equal(parameterType, 'PluginHub', "register's third parameter");
  const surfaceText = sources('core/plugin').flatMap(surfaceExports);
  t.notOk(surfaceText.includes('Hub'), 'the kernel class is not on the surface');
  t.notOk(surfaceText.includes('Child'), 'nor the kernel’s child');
});

/** The kernel's module-level bindings whose value is a new WeakSet or WeakMap, by file. */
function moduleWeakCollections(file: SourceFile): string[] {
  const found: string[] = [];
  for (const statement of file.statements) {
    if (statement.kind !== SyntaxKind.VariableStatement) continue;
    walk(statement, (node) => {
      if (node.kind !== SyntaxKind.NewExpression) return;
      const name = (node as unknown as { expression: { text?: string } }).expression.text;
      if (name === 'WeakSet' || name === 'WeakMap') found.push(`${relative(root, file.fileName)}: ${name}`);
    });
  }
  return found;
}

t.test('no core module keeps per-call state in a module-level WeakSet or WeakMap keyed by a request', async (t) => {
  // Per-call state is the call's own (core/calls/tool-call.ts), passed explicitly. The one
  // module-level WeakMaps left are keyed by a schema (compiled validators) and by a config
  // object (what was read as another client's key), never by a request.
  const found = sources('core').flatMap(moduleWeakCollections);
  t.same(found, ['core/config/other-clients.ts: WeakMap', 'core/config/schema-errors.ts: WeakMap'], 'only the validator cache and the notes on a config');
  const schemaErrors = await readFile(join(root, 'core', 'config', 'schema-errors.ts'), 'utf8');
  t.match(schemaErrors, /new WeakMap<TSchema, /, 'the validator cache is keyed by a schema');
  const otherClients = await readFile(join(root, 'core', 'config', 'other-clients.ts'), 'utf8');
  t.match(otherClients, /const adopted = new WeakMap<object, readonly string\[\]>\(\);/, 'the notes are keyed by the config they were made for');
});

t.test("no core module carries per-request state in an AsyncLocalStorage or on Node's request", async (t) => {
  // What a request hands the SDK's per-request server (access record, a cancellation that
  // arrives apart, what the server learnt) is one SdkExchange passed explicitly.
  const stores: string[] = [];
  const assigned: string[] = [];
  for (const file of sources('core')) {
    walk(file, (node) => {
      if (node.kind === SyntaxKind.NewExpression && (node as unknown as { expression: { text?: string } }).expression.text === 'AsyncLocalStorage') stores.push(relative(root, file.fileName));
      if (node.kind !== SyntaxKind.CallExpression) return;
      type Named = { kind: SyntaxKind; text?: string; name?: { text?: string }; expression?: Named };
      const call = node as unknown as { expression: Named; arguments: Named[] };
      const isObjectAssign = call.expression.kind === SyntaxKind.PropertyAccessExpression && call.expression.expression?.text === 'Object' && call.expression.name?.text === 'assign';
      // `request`, `req` or `request.raw`: the request a route or Node's adapter is handed.
      const target = call.arguments[0];
      const targetName = target?.kind === SyntaxKind.PropertyAccessExpression ? target.expression?.text : target?.text;
      if (isObjectAssign && (targetName === 'request' || targetName === 'req')) assigned.push(relative(root, file.fileName));
    });
  }
  t.same(stores, [], 'no AsyncLocalStorage is made in core');
  t.same(assigned, [], 'nothing is put on a request with Object.assign');
});

/** Members of the SDK's classes named with a leading underscore; `_meta` is the protocol's own field, `_id` the store's. */
const NOT_SDK_INTERNALS = new Set(['_meta', '_id']);

t.test("only one module reaches the SDK's members whose names begin with _", async (t) => {
  const reaching = new Set<string>();
  for (const file of [...sources('core'), ...sources('plugins')]) {
    walk(file, (node) => {
      const named = node.kind === SyntaxKind.PropertyAccessExpression || node.kind === SyntaxKind.MethodDeclaration || node.kind === SyntaxKind.PropertySignature;
      if (!named) return;
      const name = (node as unknown as { name: { text?: string } }).name.text;
      if (name?.startsWith('_') && !NOT_SDK_INTERNALS.has(name)) reaching.add(relative(root, file.fileName));
    });
  }
  t.same([...reaching], [join('core', 'children', 'client', 'plain-call-client.ts')], 'the plain-call client and the stdio transport seams beside it');
});
