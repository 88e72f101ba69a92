import { readPage, type CodeBlock } from '../docs/markdown.js';

/** The deployment pages whose every code block is run by a test or marked as an example. */
export const DEPLOYMENT_PAGES = ['docs/deployment/container.md', 'docs/deployment/kubernetes.md', 'docs/deployment/replicas.md'] as const;

/**
 * The blocks test/deploy/container-image.test.ts runs as written, by the name their info
 * string gives them (```` ```sh test:run ````).
 */
export const TESTED_BLOCKS = ['build', 'run', 'upgrade', 'kube-play', 'kube-down'] as const;
export type TestedBlock = (typeof TESTED_BLOCKS)[number];

/** The tag of a block that is shown and not run (it needs Docker, a cluster or an image of one's own). */
export const EXAMPLE_TAG = 'example';

export interface DeploymentBlock extends CodeBlock {
  page: string;
}

export async function deploymentBlocks(): Promise<DeploymentBlock[]> {
  const pages = await Promise.all(DEPLOYMENT_PAGES.map((path) => readPage(path)));
  return pages.flatMap((page) => page.blocks.map((block) => ({ ...block, page: page.path })));
}

/** The name a block's `test:<name>` tag gives it, if any. */
export function testedName(block: CodeBlock): string | undefined {
  return block.tags.find((tag) => tag.startsWith('test:'))?.slice('test:'.length);
}

/** The text of the one block named `name`. */
export async function testedBlock(name: TestedBlock): Promise<string> {
  const found = (await deploymentBlocks()).filter((block) => testedName(block) === name);
  if (found.length !== 1) throw new Error(`expected one block marked test:${name} in the deployment docs, found ${found.length}`);
  return (found[0] as DeploymentBlock).text;
}

/**
 * `text` with `from` replaced by `to`, where `from` must occur exactly once: what the test
 * changes in a documented command (a fixed host port) is named, never guessed.
 */
export function replaceOnce(text: string, from: string, to: string): string {
  const count = text.split(from).length - 1;
  if (count !== 1) throw new Error(`expected ${JSON.stringify(from)} once, found it ${count} times`);
  return text.replace(from, to);
}

/** The `podman run …` command of a block: from its line to the first line not continued by `\`. */
export function podmanRunCommand(block: string): string {
  const lines = block.split('\n');
  const start = lines.findIndex((line) => line.startsWith('podman run '));
  if (start < 0) throw new Error('the block has no podman run command');
  const end = lines.findIndex((line, index) => index >= start && !line.trimEnd().endsWith('\\'));
  return lines.slice(start, end + 1).join('\n');
}
