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

/** An operator session cookie, as the login form of the hub's pages gives it. */
export async function operatorSession(url: string, password: string): Promise<string> {
  const form = await fetch(`${url}/status`);
  const cookies = form.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const answer = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies, origin: url, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ _csrf: token, password, return_to: '/status' }).toString(),
  });
  const session = answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .find((cookie) => cookie.startsWith('hub_session='));
  if (!session) throw new Error(`the login gave no session (HTTP ${answer.status})`);
  return session;
}

/** The sum of every sample of `name` whose labels include `labels`. */
export function total(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map([...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value)) sum += Number(match[3]);
  }
  return sum;
}
