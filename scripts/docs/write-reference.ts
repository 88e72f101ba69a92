#!/usr/bin/env node
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCli } from '../../core/cli/run.js';
import { referencePages, repositoryRoot } from './reference.js';

/** `npm run docs`: rewrites the generated pages of docs/reference/ from the code. */
runCli('write-docs', async () => {
  const pages = await referencePages();
  for (const [path, text] of pages) {
    await mkdir(dirname(join(repositoryRoot, path)), { recursive: true });
    await writeFile(join(repositoryRoot, path), text);
  }
  process.stdout.write(`wrote ${pages.size} reference pages to ${join(repositoryRoot, 'docs', 'reference')}\n`);
});
