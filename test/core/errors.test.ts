import { readdir, readFile, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import t from 'tap';
import { ChildEndedError } from '../../core/children/child-type.js';
import { ChildRegistry } from '../../core/children/registry.js';
import { LoginRequiredError } from '../../core/children/client/upstream-auth.js';
import { AnswerTooLargeError } from '../../plugins/lifecycle-remote/child-http.js';
import { SocketTransport } from '../../plugins/lifecycle-remote/socket-transport.js';
import { parseFlags } from '../../core/cli/flags.js';
import { UsageError } from '../../core/cli/run.js';
import { checkDataPath } from '../../core/store/data-path.js';
import { HUB_ERROR_CODES, HubError, hubErrorCode, StartupError } from '../../core/errors.js';
import { parseJsonRpcBody } from '../../core/http/json-rpc-bodies.js';
import { BlockedRequestError, FetchLimitError } from '../../core/net/guarded-fetch.js';
import { Registry, Slot } from '../../core/registry.js';
import { settingsFromEnvironment } from '../../core/config/settings.js';
import { openEmbeddedStore } from '../../core/store/embedded.js';
import { DuplicateKeyError } from '../../core/store/port.js';
import { CONSOLE_ERROR_CODES } from '../../plugins/console/errors.js';
import { DOCKER_ERROR_CODES } from '../../plugins/lifecycle-docker/errors.js';
import { MAP_ERROR_CODES } from '../../plugins/map-tools/error-codes.js';
import { OAUTH_ERROR_CODES } from '../../plugins/oauth-as/errors.js';
import { TOOL_PINNING_ERROR_CODES } from '../../plugins/tool-pinning/errors.js';
import { UPSTREAM_OAUTH_ERROR_CODES } from '../../plugins/upstream-oauth/errors.js';

const CODE = /^HUB_ERR_[A-Z0-9]+(?:_[A-Z0-9]+)*$/;

t.test('codes are HUB_ERR_ and upper-case words, unique across the kernel and the plugins, each plugin under its prefix', async (t) => {
  const lists = {
    kernel: { codes: HUB_ERROR_CODES, prefix: 'HUB_ERR_' },
    'lifecycle-docker': { codes: DOCKER_ERROR_CODES, prefix: 'HUB_ERR_DOCKER_' },
    'map-tools': { codes: MAP_ERROR_CODES, prefix: 'HUB_ERR_MAP_' },
    'oauth-as': { codes: OAUTH_ERROR_CODES, prefix: 'HUB_ERR_OAUTH_' },
    'upstream-oauth': { codes: UPSTREAM_OAUTH_ERROR_CODES, prefix: 'HUB_ERR_UPSTREAM_OAUTH_' },
    'tool-pinning': { codes: TOOL_PINNING_ERROR_CODES, prefix: 'HUB_ERR_TOOL_PINNING_' },
    console: { codes: CONSOLE_ERROR_CODES, prefix: 'HUB_ERR_CONSOLE_' },
  };
  const owners = new Map<string, string[]>();
  for (const [owner, { codes, prefix }] of Object.entries(lists)) {
    for (const code of Object.values(codes)) {
      t.match(code, CODE, `${owner}: ${code}`);
      t.ok(code.startsWith(prefix), `${owner}: ${code} starts with ${prefix}`);
      owners.set(code, [...(owners.get(code) ?? []), owner]);
    }
  }
  t.same(
    [...owners].filter(([, by]) => by.length > 1),
    [],
    'no code has two meanings',
  );
  const kernelPrefixes = ['HUB_ERR_DOCKER_', 'HUB_ERR_MAP_', 'HUB_ERR_OAUTH_', 'HUB_ERR_UPSTREAM_OAUTH_', 'HUB_ERR_TOOL_PINNING_', 'HUB_ERR_CONSOLE_'];
  t.same(
    Object.values(HUB_ERROR_CODES).filter((code) => kernelPrefixes.some((prefix) => code.startsWith(prefix))),
    [],
    'the kernel takes no plugin prefix',
  );
});

t.test('each kernel error class carries its code and cause, and stays itself', async (t) => {
  const cause = new Error('underneath');
  const classes = [
    [ChildEndedError, HUB_ERROR_CODES.CHILD_ENDED],
    [AnswerTooLargeError, HUB_ERROR_CODES.ANSWER_TOO_LARGE],
    [LoginRequiredError, HUB_ERROR_CODES.LOGIN_REQUIRED],
    [UsageError, HUB_ERROR_CODES.USAGE],
    [DuplicateKeyError, HUB_ERROR_CODES.DUPLICATE_KEY],
    [FetchLimitError, HUB_ERROR_CODES.FETCH_LIMIT],
    [BlockedRequestError, HUB_ERROR_CODES.FETCH_BLOCKED],
    [StartupError, HUB_ERROR_CODES.STARTUP],
  ] as const;
  for (const [ErrorClass, code] of classes) {
    const error = new ErrorClass('what a person reads', { cause });
    t.ok(error instanceof ErrorClass && error instanceof HubError && error instanceof Error, `${ErrorClass.name} is a HubError`);
    t.match(error, { name: ErrorClass.name, code, message: 'what a person reads' }, ErrorClass.name);
    t.equal(error.cause, cause, `${ErrorClass.name} keeps its cause`);
    t.equal(hubErrorCode(error), code);
  }
  t.equal(new StartupError('x', { code: HUB_ERROR_CODES.LISTEN }).code, HUB_ERROR_CODES.LISTEN, 'a start-up error may name what stopped the start');
  t.equal(hubErrorCode(new Error('plain')), undefined, 'other errors have no hub code');
  t.equal(hubErrorCode('text'), undefined);
});

t.test('what the kernel throws carries a code', async (t) => {
  t.throws(() => parseJsonRpcBody(''), { code: HUB_ERROR_CODES.JSON_RPC_BODY, statusCode: 400, rpcCode: -32700 });
  t.throws(() => parseJsonRpcBody('{"a":'), { code: HUB_ERROR_CODES.JSON_RPC_BODY, rpcCode: -32700, cause: { name: 'SyntaxError' } });
  t.throws(() => parseJsonRpcBody('{"__proto__":{}}'), { code: HUB_ERROR_CODES.JSON_RPC_BODY, rpcCode: -32600 });

  t.throws(() => settingsFromEnvironment({ PORT: 'eighty' }), {
    name: 'StartupError',
    code: HUB_ERROR_CODES.SETTING_INVALID,
    cause: { code: HUB_ERROR_CODES.SETTING_INVALID },
  });
  t.throws(() => parseFlags(['--nope'], {}, 'usage: test'), { name: 'UsageError', code: HUB_ERROR_CODES.USAGE, cause: { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' } });

  const registry = new Registry<number>('thing');
  registry.add('one', 1, 'first');
  t.throws(() => registry.add('one', 2, 'second'), { code: HUB_ERROR_CODES.REGISTERED_TWICE });

  const children = new ChildRegistry(Fastify({ logger: false }).log, { name: 'test', version: '1' });
  t.throws(() => children.add('odd', { type: 'carrier-pigeon' }), { code: HUB_ERROR_CODES.CHILD_TYPE_UNKNOWN });
  children.add('local', { type: 'in-process' });
  t.throws(() => children.add('local', { type: 'in-process' }), { code: HUB_ERROR_CODES.SERVER_EXISTS });

  const slot = new Slot<number>('the answer');
  slot.fill(42, 'first');
  t.throws(() => slot.fill(43, 'second'), { name: 'StartupError', code: HUB_ERROR_CODES.SLOT_TAKEN, message: /by plugin "first" and by plugin "second"/ });
  t.equal(slot.value, 42, 'the first provider stays');

  const file = join(t.testdir(), 'a-file');
  await writeFile(file, '');
  await t.rejects(checkDataPath(file), { name: 'StartupError', code: HUB_ERROR_CODES.DATA_PATH });
  await t.rejects(checkDataPath(join(file, 'below')), { code: HUB_ERROR_CODES.DATA_PATH, cause: { code: 'ENOTDIR' } });

  const transport = new SocketTransport(new Socket());
  await transport.close();
  await t.rejects(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 }), { code: HUB_ERROR_CODES.CONNECTION_CLOSED });

  const store = await openEmbeddedStore(join(t.testdir(), 'store'));
  t.teardown(() => store.close());
  const things = store.collection<{ _id: string }>('things');
  await things.insertOne({ _id: 'x' });
  await t.rejects(things.insertOne({ _id: 'x' }), { name: 'DuplicateKeyError', code: HUB_ERROR_CODES.DUPLICATE_KEY, cause: { errorType: 'uniqueViolated' } });
});

t.test('no bare errors: everything the kernel and the plugins throw is of the family', async (t) => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const bare: string[] = [];
  for (const folder of ['core', 'plugins']) {
    for (const entry of await readdir(join(root, folder), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
      const file = join(entry.parentPath, entry.name);
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/throw new Error\(|class \w+ extends Error\b/g)) {
        if (!(folder === 'core' && entry.name === 'errors.js' && match[0].startsWith('class HubError'))) bare.push(`${relative(root, file)}: ${match[0]}`);
      }
    }
  }
  t.same(bare, [], 'no `throw new Error(` and no error class outside HubError');
});
