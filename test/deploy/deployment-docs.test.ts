import t from 'tap';
import { deploymentBlocks, EXAMPLE_TAG, TESTED_BLOCKS, testedName } from './docs-blocks.js';

// Issue 43, item 7: every command of the deployment docs runs in a test
// (test/deploy/container-image.test.ts runs the blocks marked `test:<name>` as written), or
// is marked as an example that no test here can run (Docker, a cluster, an image of one's own).

const blocks = await deploymentBlocks();

t.test('every block of the deployment docs is run by the container test or marked as an example', async (t) => {
  t.ok(blocks.length >= TESTED_BLOCKS.length, `${blocks.length} blocks`);
  for (const block of blocks) {
    const name = testedName(block);
    const where = `${block.page}:${block.line}`;
    if (name === undefined) t.ok(block.tags.includes(EXAMPLE_TAG), `${where}: marked test:<name> or ${EXAMPLE_TAG}`);
    else t.ok((TESTED_BLOCKS as readonly string[]).includes(name), `${where}: test:${name} is a block the container test runs`);
  }
});

t.test('each block the container test runs is in the docs once', async (t) => {
  const names = blocks.map(testedName).filter((name) => name !== undefined);
  t.same([...names].sort(), [...TESTED_BLOCKS].sort());
});
