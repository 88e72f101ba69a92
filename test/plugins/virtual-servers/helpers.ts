import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `@modelcontextprotocol/server-everything` as a stdio server entry (on demand: it sleeps until used). */
export function everythingEntry(): { command: string; args: string[] } {
  return { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
}

/** The text of a tool result's first content block. */
export function firstText(result: { content?: unknown }): string | undefined {
  return (result.content as Array<{ text?: string }> | undefined)?.[0]?.text;
}

/** Waits (turn by turn, no clock) until `ready` holds: a virtual server reads its list again after the servers it draws on changed. */
export async function until(ready: () => boolean, turns = 5000): Promise<boolean> {
  for (let turn = 0; turn < turns; turn++) {
    if (ready()) return true;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return ready();
}
