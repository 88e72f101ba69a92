// Loaded into the hub with `--import` by library-footprint.ts, in a run of its own (the hooks'
// thread would weigh in the figures): records every package the checkout's own code imports
// while the hub runs, as "<specifier> <resolved URL>" lines appended to the file named by
// FOOTPRINT_IMPORTS_FILE. Node's module hooks (module.register) rather than reading the
// import statements: they see what is imported at start-up, dynamic imports included, and
// resolve each specifier as the hub does.
import { appendFileSync } from 'node:fs';
import { register, type ResolveHook } from 'node:module';
import { isMainThread } from 'node:worker_threads';

/** The checkout's root (this file is dist/bench/footprint-hooks.js): its own code is everything below it outside node_modules. */
const OWN = new URL('../../', import.meta.url).href;

// Node runs the hooks in a thread of their own, which loads this file again.
if (isMainThread) register(import.meta.url);

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  const parent = context.parentURL;
  const out = process.env.FOOTPRINT_IMPORTS_FILE;
  if (out && parent?.startsWith(OWN) && !parent.includes('/node_modules/') && resolved.url.includes('/node_modules/')) {
    appendFileSync(out, `${specifier} ${resolved.url}\n`);
  }
  return resolved;
};
