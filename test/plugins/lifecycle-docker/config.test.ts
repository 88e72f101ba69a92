import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { startHub, tempDir } from '../../core/children/helpers.js';
import { isPinned, parseMemory } from '../../../plugins/lifecycle-docker/entry.js';

// What the plugin decides before any container exists: no engine is needed.

const DIGEST = 'sha256:' + 'ab'.repeat(32);
const pinned = (extra: Record<string, unknown> = {}) => ({ type: 'docker', image: `example/server@${DIGEST}`, ...extra });

t.test('sizes and pinned references', async (t) => {
  t.equal(parseMemory('512m'), 512 * 1024 ** 2);
  t.equal(parseMemory('1.5G'), 1.5 * 1024 ** 3);
  t.equal(parseMemory('4096'), 4096);
  t.equal(parseMemory(8_388_608), 8_388_608);
  t.throws(() => parseMemory('lots'), { code: 'HUB_ERR_DOCKER_MEMORY_INVALID' });
  t.ok(isPinned(`example/server@${DIGEST}`));
  t.ok(isPinned(DIGEST), 'an image ID is content-addressed too');
  t.notOk(isPinned('example/server:latest'));
  t.notOk(isPinned(`example/server:sha256-${'ab'.repeat(32)}`), 'a tag that looks like a digest is still a tag');
});

t.test('volumes that expose the hub data or the Docker socket are refused at start-up', async (t) => {
  const dataPath = await tempDir(t);
  const elsewhere = await tempDir(t);
  await mkdir(join(dataPath, 'snapshots'));
  await symlink(dataPath, join(elsewhere, 'link'));
  const env = { DOCKER_HOST: `unix://${join(elsewhere, 'engine.sock')}` };
  const refused = async (source: string, what: RegExp) => {
    const entry = pinned({ volumes: [{ source, target: '/data' }] });
    await t.rejects(startHub(t, { config: { mcpServers: { box: entry } }, dataPath, env }), { code: 'HUB_ERR_DOCKER_SANDBOX_REFUSED', message: what }, source);
  };
  await refused(dataPath, /^server "box": the volume .* -> \/data is refused: it would expose the hub's DATA_PATH/);
  await refused(join(dataPath, 'snapshots'), /expose the hub's DATA_PATH/);
  await refused(join(dataPath, '..'), /expose the hub's DATA_PATH/);
  await refused(join(elsewhere, 'link', 'snapshots'), /expose the hub's DATA_PATH/);
  await refused('/', /expose the hub's DATA_PATH/);
  await refused(join(elsewhere, 'engine.sock'), /expose the Docker socket/);
  await refused('/var/run', /expose the Docker socket/);

  const unrelated = await tempDir(t);
  const { hub } = await startHub(t, { config: { mcpServers: { box: pinned({ volumes: [{ source: unrelated, target: '/data' }] }) } }, dataPath, env });
  t.ok(hub.children.get('box'), 'an unrelated folder is accepted');
});

t.test('a network namespace outside the sandbox is refused; a bad entry names its key', async (t) => {
  await t.rejects(startHub(t, { config: { mcpServers: { box: pinned({ network: 'host' }) } } }), { code: 'HUB_ERR_DOCKER_SANDBOX_REFUSED', message: /^server "box": network "host"/ });
  await t.rejects(startHub(t, { config: { mcpServers: { box: pinned({ network: 'container:abc' }) } } }), { code: 'HUB_ERR_DOCKER_SANDBOX_REFUSED', message: /network "container:abc"/ });
  await t.rejects(startHub(t, { config: { mcpServers: { box: { type: 'docker' } } } }), { code: 'HUB_ERR_CONFIG_INVALID', message: /server "box": key "image"/ });
  await t.rejects(startHub(t, { config: { mcpServers: { box: pinned({ memory: 'lots' }) } } }), { code: 'HUB_ERR_CONFIG_INVALID', message: /server "box": key "memory"/ });
});

t.test('an image that is not pinned by digest is started with a warning', async (t) => {
  const { logs } = await startHub(t, { config: { mcpServers: { loose: pinned({ image: 'example/server:1' }), tight: pinned() } } });
  const warnings = logs.filter((line) => line.level === 40 && /not pinned by digest/.test(line.msg));
  t.same(
    warnings.map((line) => line.server),
    ['loose'],
    'one warning, for the tag only',
  );
});

t.test('DOCKER_HOST: an unsupported address stops a hub with docker servers only', async (t) => {
  await t.rejects(startHub(t, { config: { mcpServers: { box: pinned() } }, env: { DOCKER_HOST: 'ssh://user@example' } }), {
    code: 'HUB_ERR_DOCKER_HOST_INVALID',
    message: /DOCKER_HOST "ssh:\/\/user@example"/,
  });
  const { hub } = await startHub(t, { config: {}, env: { DOCKER_HOST: 'ssh://user@example' } });
  t.notOk(hub.childTypes.get('docker'), 'without docker servers the type is simply not added');
});

t.test('an engine that cannot be reached fails the wake with a pointer to DOCKER_HOST', async (t) => {
  const directory = await tempDir(t);
  const socket = join(directory, 'absent.sock');
  const { hub } = await startHub(t, {
    config: { mcpServers: { box: pinned() } },
    env: { DOCKER_HOST: `unix://${socket}` },
    timings: { wakeBudgetMs: 1_000 },
  });
  await t.rejects(hub.children.get('box')?.ensureUp() ?? Promise.reject(new Error('no child')), {
    message: new RegExp(`the Docker engine at unix://${socket} cannot be reached \\(ENOENT\\); set DOCKER_HOST`),
  });
});

t.test('a tcp:// engine that refuses the connection fails the wake the same way', async (t) => {
  const { hub } = await startHub(t, {
    config: { mcpServers: { box: pinned() } },
    env: { DOCKER_HOST: 'tcp://127.0.0.1:1' },
    timings: { wakeBudgetMs: 1_000 },
  });
  await t.rejects(hub.children.get('box')?.ensureUp() ?? Promise.reject(new Error('no child')), {
    message: /the Docker engine at tcp:\/\/127\.0\.0\.1:1 cannot be reached \(ECONNREFUSED\)/,
  });
});
