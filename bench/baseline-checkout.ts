// A before/after bench's baseline: a built checkout of another commit. `--baseline` takes
// either a folder (a checkout already built, used as it is) or a commit of this repository
// (anything `git rev-parse` reads: a hash, HEAD~1, a branch), which is checked out into a
// temporary git worktree, given this checkout's node_modules (a link: the baseline runs with
// today's dependencies, so a commit that changed them is to be built by hand) and built
// with `tsc` there. The worktree is removed when the bench ends.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The root of a built checkout for `baseline`, and what to call when done with it. */
export function baselineCheckout(baseline: string): { root: string; remove(): void } {
  if (existsSync(join(baseline, 'package.json'))) return { root: baseline, remove: () => undefined };
  const commit = execFileSync('git', ['rev-parse', '--verify', `${baseline}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const root = join(mkdtempSync(join(tmpdir(), 'bench-baseline-')), 'checkout');
  console.error(`baseline: building ${commit.slice(0, 12)} in ${root}`);
  execFileSync('git', ['worktree', 'add', '--detach', root, commit], { cwd: ROOT, stdio: 'ignore' });
  const remove = (): void => {
    execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' });
    rmSync(join(root, '..'), { recursive: true, force: true });
  };
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  } catch (error) {
    remove();
    throw error;
  }
  return { root, remove };
}
