import { argvToNodeOptions, nodeOptionsToArgv } from 'node-options-to-argv';
import { fileURLToPath } from 'node:url';
import processOnSpawn from 'process-on-spawn';

/*
 * The environment of every process a test starts: loaded into every test process (package.json,
 * "tap" "node-arg"), after tap's own @tapjs/processinfo.
 *
 * processinfo puts itself into the NODE_OPTIONS of every process a test starts, and so into
 * each hub, hub-admin and fixture server and everything they start in turn: on Node 20 it adds
 * an off-thread module loader, source maps and a record written at exit to each of them, which
 * more than doubled the CPU a `hub-admin` start costs (2.3 s of CPU without it, 4.5 s with it,
 * measured on this machine). It only feeds tap's own coverage (off here: c8 measures coverage,
 * through NODE_V8_COVERAGE) and `tap --changed`, which this project does not use. So every
 * process a test starts gets the test's NODE_OPTIONS without it; anything else in NODE_OPTIONS
 * is kept. processinfo adds itself through process-on-spawn's listeners, which run in the order
 * they were added: this one, added later, sees what it added and takes it out again. It takes
 * out tests-without-module-hooks.ts too, which the test's own NODE_OPTIONS loads: a child has
 * no processinfo hooks to decline, and may run in a folder where that relative path leads
 * nowhere.
 *
 * A fixture server (test/fixtures/children and servers, which import nothing of the hub) and a
 * package's own script (the conformance suite, the reference servers) runs without
 * NODE_V8_COVERAGE: c8 reports on the hub's files only, and their coverage was a fifth of the
 * suite's (about 1 GB of 4.6), written by each of them at exit and read again by c8's report.
 * Coverage of a hub stays whole: a hub, hub-admin or map server is started from dist/core or
 * dist/plugins. Each process started with coverage also loads child-coverage-without-source-maps.ts
 * (see there why).
 */
const TEST_PROCESS_ONLY = /[\\/]@tapjs[\\/]processinfo[\\/]|^\.\/dist\/test\/setup\/tests-without-module-hooks\.js$/;
const LOADER_FLAGS = new Set(['--import', '--loader', '--experimental-loader', '--require', '-r']);
const WITHOUT_SOURCE_MAPS = fileURLToPath(new URL('./child-coverage-without-source-maps.js', import.meta.url));
const WITHOUT_COVERAGE = /[\\/]dist[\\/]test[\\/]fixtures[\\/](children|servers)[\\/]|[\\/]node_modules[\\/]/;

/** `argv` without the flags that load @tapjs/processinfo (or decline its hooks), in their `--flag=value` and `--flag value` forms. */
function withoutProcessinfo(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const [flag = '', value] = argument.split(/=(.*)/s);
    if (LOADER_FLAGS.has(flag) && value !== undefined && TEST_PROCESS_ONLY.test(value)) continue;
    if (LOADER_FLAGS.has(argument) && TEST_PROCESS_ONLY.test(argv[index + 1] ?? '')) {
      index++;
      continue;
    }
    kept.push(argument);
  }
  return kept;
}

const CODE_FLAGS = new Set(['-e', '--eval', '-p', '--print']);

/** The script a `node` command runs: its first argument that is not a flag or a loader flag's value; none for code given inline. */
function nodeScript(execPath: string, args: readonly string[]): string | undefined {
  if (!/(^|[\\/])node(\.exe)?$/.test(execPath)) return undefined;
  const argv = args.slice(1);
  if (argv.some((argument) => CODE_FLAGS.has(argument.split('=')[0] ?? ''))) return undefined;
  return argv.find((argument, index) => !argument.startsWith('-') && !LOADER_FLAGS.has(argv[index - 1] ?? ''));
}

processOnSpawn.addListener((options) => {
  const env = { ...options.env };
  if (env.NODE_OPTIONS !== undefined) {
    const kept = withoutProcessinfo(nodeOptionsToArgv(env.NODE_OPTIONS));
    if (kept.length > 0) env.NODE_OPTIONS = argvToNodeOptions(kept);
    else delete env.NODE_OPTIONS;
  }
  const script = nodeScript(options.execPath, options.args);
  if (script !== undefined && WITHOUT_COVERAGE.test(script)) delete env.NODE_V8_COVERAGE;
  if (env.NODE_V8_COVERAGE) env.NODE_OPTIONS = argvToNodeOptions([`--import=${WITHOUT_SOURCE_MAPS}`, ...nodeOptionsToArgv(env.NODE_OPTIONS ?? '')]);
  options.env = env;
});
