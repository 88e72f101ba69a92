import module from 'node:module';

/*
 * Loaded first into every test file's process, through NODE_OPTIONS (package.json, "tap"
 * "test-env": Node runs the --import of NODE_OPTIONS before those of the command line, and tap
 * puts @tapjs/processinfo's last on that line). processinfo registers module hooks, so that
 * tap can map coverage and know which files a test loaded for `tap --changed`. This project
 * uses neither (c8 measures coverage through NODE_V8_COVERAGE). On Node 20 the hooks run on a
 * thread of their own, and every module a test imports crosses to it and back, is read twice
 * and has its lines counted: a test file that imports the hub's helpers took 2.0 s of CPU with
 * them and 1.1 s without (measured under coverage on this project's 2-core machine); 147 of
 * the suite's 261 files import the kernel.
 *
 * So processinfo's registration is declined here; everything else it does stays, above all
 * its record of each test process in .tap/processinfo, which scripts/test-times.ts reads. Other
 * hooks (a plugin's, a test's own) are registered as usual. Node 24's synchronous hooks
 * (`registerHooks`, which processinfo uses from 24.13) cost far less and are left alone.
 */
const register = module.register.bind(module);
const PROCESSINFO = /[\\/]@tapjs[\\/]processinfo[\\/]/;

module.register = (specifier: string | URL, ...rest: unknown[]): void => {
  if (PROCESSINFO.test(String(specifier))) return;
  (register as (specifier: string | URL, ...rest: unknown[]) => void)(specifier, ...rest);
};
