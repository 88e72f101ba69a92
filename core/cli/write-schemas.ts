#!/usr/bin/env node
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { collectSchemas, serializeSchema } from '../schemas.js';
import { runCli } from './run.js';

/** `npm run schemas`: rewrites `schemas/` from the TypeBox sources. */
runCli('write-schemas', async () => {
  const target = join(process.cwd(), 'schemas');
  await rm(target, { recursive: true, force: true });
  const schemas = await collectSchemas();
  for (const [path, schema] of schemas) {
    await mkdir(dirname(join(target, path)), { recursive: true });
    await writeFile(join(target, path), serializeSchema(schema));
  }
  process.stdout.write(`wrote ${schemas.size} schemas to ${target}\n`);
});
