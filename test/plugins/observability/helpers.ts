import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** `@modelcontextprotocol/server-everything` as a stdio server entry. */
export function everythingEntry(): { command: string; args: string[] } {
  return { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
}

/** The fixture child that answers with the `_meta` it received. */
export function echoMetaEntry(): { command: string; args: string[] } {
  return { command: process.execPath, args: [fileURLToPath(new URL('../../fixtures/children/echo-meta.js', import.meta.url))] };
}

/** The value of one sample of a Prometheus text exposition, or undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map([...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (wanted.every(([key, value]) => found.get(key) === value) && found.size === wanted.length) return Number(match[3]);
  }
  return undefined;
}
