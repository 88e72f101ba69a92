import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// Issue 18, item 9: `npm start` runs the hub built at install (`prepare`) instead of
// compiling on every start. Shown on a copy of the project whose TypeScript sources
// cannot compile: a start that ran `tsc` would fail there.

const root = fileURLToPath(new URL('../../../../', import.meta.url));

t.test('npm start runs the built hub without compiling', async (t) => {
  const project = await mkdtemp(join(tmpdir(), 'npm-start-'));
  await copyFile(join(root, 'package.json'), join(project, 'package.json'));
  await symlink(join(root, 'node_modules'), join(project, 'node_modules'));
  await symlink(join(root, 'dist'), join(project, 'dist'));
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ include: ['no-sources-here'] }));
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('npm', ['start', '--silent', '--', '--version'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
  });
  t.equal(code, 0, stderr);
  t.match(stdout.trim(), /^\d+\.\d+\.\d+$/, 'the hub answered --version');
  t.notMatch(`${stdout}${stderr}`, /TS18003|error TS/, 'no compiler ran');
});
