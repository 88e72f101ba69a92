import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { podmanEnvironment, whyNoPodman } from '../helpers/podman.js';
import { REPOSITORY } from './manifests.js';

// Issue 60, item 6: an air-gapped site builds the image on a base of its own
// (`--build-arg BASE=...`); deploy/offline-base.sh makes one from the machine's node and
// npm, as docs/deployment/container.md says. Here it is made in a podman store of the
// test's own and run: node and npm answer, the node user is uid 1000.

const skip = whyNoPodman();

t.test('deploy/offline-base.sh makes a base image with node, npm and the node user', { skip }, async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'hub-offline-base-'));
  const options = ['--root', join(folder, 'storage'), '--runroot', join(folder, 'run')];
  const env = podmanEnvironment(folder);
  t.teardown(() => {
    spawnSync('podman', [...options, 'rmi', '--force', '--all'], { env, stdio: 'ignore', timeout: 120_000 });
    rmSync(folder, { recursive: true, force: true });
  });
  const tag = 'localhost/node-offline:test';
  const made = spawnSync(join(REPOSITORY, 'deploy/offline-base.sh'), [tag], { env: { ...env, PODMAN: `podman ${options.join(' ')}` }, encoding: 'utf8', timeout: 300_000 });
  t.equal(made.status, 0, `the script ran: ${made.stderr}`);
  const inside = spawnSync('podman', [...options, 'run', '--rm', '--user', 'node', tag, 'sh', '-c', 'node -p process.version && npm --version && node -p "process.getuid()"'], {
    env,
    encoding: 'utf8',
    timeout: 300_000,
  });
  t.equal(inside.status, 0, inside.stderr);
  const [nodeVersion, npmVersion, uid] = inside.stdout.trim().split('\n');
  t.equal(nodeVersion, process.version, "this machine's node");
  t.match(npmVersion, /^\d+\.\d+\.\d+$/, 'npm runs');
  t.equal(uid, '1000', 'the node user is uid 1000, as in the official image');
});
