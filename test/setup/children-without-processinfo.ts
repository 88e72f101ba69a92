import { argvToNodeOptions, nodeOptionsToArgv } from 'node-options-to-argv';
import processOnSpawn from 'process-on-spawn';

/*
 * Loaded into every test process (package.json, "tap" "node-arg"), after tap's own
 * @tapjs/processinfo. That module puts itself into the NODE_OPTIONS of every process a test
 * starts, and so into each hub, hub-admin and fixture server and everything they start in
 * turn: on Node 20 it adds an off-thread module loader, source maps and a record written at
 * exit to each of them, which more than doubled the CPU a `hub-admin` start costs (2.3 s of
 * CPU without it, 4.5 s with it, measured on this machine). It only feeds tap's own coverage
 * (off here: c8 measures coverage, through NODE_V8_COVERAGE, which this leaves alone) and
 * `tap --changed`, which this project does not use. So every process a test starts gets the
 * test's NODE_OPTIONS without it; anything else in NODE_OPTIONS is kept.
 *
 * processinfo adds itself through process-on-spawn's listeners, which run in the order they
 * were added: this one, added later, sees what it added and takes it out again.
 */
const PROCESSINFO = /[\\/]@tapjs[\\/]processinfo[\\/]/;
const LOADER_FLAGS = new Set(['--import', '--loader', '--experimental-loader', '--require', '-r']);

/** `argv` without the flags that load @tapjs/processinfo, in their `--flag=value` and `--flag value` forms. */
function withoutProcessinfo(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const [flag = '', value] = argument.split(/=(.*)/s);
    if (LOADER_FLAGS.has(flag) && value !== undefined && PROCESSINFO.test(value)) continue;
    if (LOADER_FLAGS.has(argument) && PROCESSINFO.test(argv[index + 1] ?? '')) {
      index++;
      continue;
    }
    kept.push(argument);
  }
  return kept;
}

processOnSpawn.addListener((options) => {
  const { NODE_OPTIONS, ...env } = options.env;
  if (NODE_OPTIONS === undefined) return;
  const kept = withoutProcessinfo(nodeOptionsToArgv(NODE_OPTIONS));
  options.env = kept.length > 0 ? { ...env, NODE_OPTIONS: argvToNodeOptions(kept) } : env;
});
