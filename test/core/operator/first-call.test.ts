import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { freePort } from '../../helpers/net.js';
import { waitFor } from '../children/helpers.js';

// Issue 32, item 1: the README's first section takes a newcomer from `npm ci` to a tool
// call in five commands. They run here as written, on a copy of the checkout (already
// installed, so `npm ci` is not run again) and on a free port instead of 3000.

const root = fileURLToPath(new URL('../../../../', import.meta.url));

t.test("the README's first call works as written", async (t) => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const firstSection = /^## (.+)$/m.exec(readme);
  t.equal(firstSection?.[1], 'First call', 'it is the first section');
  const block = /^## First call\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? '';
  const commands = block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/\s+#(?!!).*$/, '').trim());
  t.equal(commands.length, 5, 'five commands');
  t.equal(commands[0], 'npm ci');
  t.equal(commands[1], 'npm start &');

  const project = await mkdtemp(join(tmpdir(), 'first-call-'));
  await copyFile(join(root, 'package.json'), join(project, 'package.json'));
  for (const linked of ['node_modules', 'dist', 'examples']) await symlink(join(root, linked), join(project, linked));
  const port = await freePort();
  // Issue 43, item 14: only PORT, as the hub reads it; the example follows it (no HUB_URL).
  const { HUB_URL: _unused, BASE_URL: _unset, ...inherited } = process.env;
  const env = { ...inherited, PORT: String(port), DATA_PATH: join(project, 'data'), HUB_CONFIG: join(project, 'mcp.json') };
  const local = (command: string) => command.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);

  const [program, ...args] = (commands[1] ?? '').replace(/\s*&$/, '').split(' ');
  const hub = spawn(program ?? 'npm', args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  hub.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  hub.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise((resolve) => hub.once('exit', resolve));
  t.teardown(async () => {
    hub.kill('SIGTERM');
    await exited;
  });
  await waitFor('the hub to listen', () => log.includes(`Server listening at http://127.0.0.1:${port}`), 120_000);

  const script = commands.slice(2).map(local).join('\n');
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const shell = spawn('bash', ['-e', '-c', script], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    shell.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
  });
  t.equal(code, 0, stderr);
  t.match(stdout, /"result":\{"content":\[\{"type":"text","text":"1\.1 km in a straight line from 43\.7314,7\.4199 to 43\.7396,7\.4278/, 'curl called the map tool');
  for (const revision of ['2026-07-28', '2025-11-25']) {
    // curl's answer ends without a newline, so the first line of the snippet follows it.
    t.match(stdout, new RegExp(`${revision} /hub list_servers: \\{"servers":\\[\\{"name":"map"`), `the SDK on /hub, ${revision}`);
    t.match(stdout, new RegExp(`${revision} /map/mcp straight_line_distance: 1\\.1 km in a straight line`), `the SDK on /map/mcp, ${revision}`);
  }
});
