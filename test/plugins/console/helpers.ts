import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { Hub } from '../../../core/hub.js';
import { hub, onKernel } from '../../../core/kernel.js';

const require = createRequire(import.meta.url);

export const PASSWORD = 'correct horse battery';
export { ARGS, CHROMIUM } from '../../helpers/chromium.js';

/** `@modelcontextprotocol/server-everything` as a stdio server entry. */
export function everythingEntry(): { command: string; args: string[] } {
  return { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
}

/** A hand-written config: its own indentation (tabs), key order and spacing, which a save must keep. */
/** The servers of a config file as the console wrote it. */
export function writtenServers(text: string): Record<string, { env?: Record<string, string>; args?: string[] } | undefined> {
  return (JSON.parse(text) as { mcpServers: Record<string, { env?: Record<string, string>; args?: string[] }> }).mcpServers;
}

export function handWritten(extra = ''): string {
  return `{
\t"plugins": { "oauth-as": false, "map-tools": false },
\t"mcpServers": {
\t\t"zeta":   { "command": "/bin/true",   "args": ["a",  "b"] },${extra}
\t\t"alpha": {
\t\t\t"args": ["--x"],
\t\t\t"command": "/bin/false"
\t\t}
\t}
}
`;
}

export interface ConsoleHub {
  url: string;
  hub: Hub;
  file: string;
  folder: string;
  logs: string[];
}

/**
 * A real hub on loopback that reads its config from a file (the console edits files; the
 * test hub of helpers/hub.ts is handed its config as a value), with the operator password
 * set. Closed by the test's teardown.
 */
export async function startConsoleHub(t: { teardown(fn: () => unknown): void }, text: string, options: { file?: string; folder?: string } = {}): Promise<ConsoleHub> {
  const folder = options.folder ?? (await mkdtemp(join(tmpdir(), 'console-')));
  const file = options.file ?? join(folder, 'mcp.json');
  if (options.file === undefined) await writeFile(file, text);
  const dataPath = await mkdtemp(join(tmpdir(), 'console-data-'));
  const logs: string[] = [];
  const app = Fastify({ pluginTimeout: 0, logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } } });
  let context: Hub | undefined;
  await app.register(hub, {
    [onKernel]: (created: Hub) => (context = created),
    env: { DATA_PATH: dataPath, HUB_PASSWORD: PASSWORD, PATH: process.env.PATH ?? '' },
    settings: { dataPath, configFile: file },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (!context) throw new Error('the hub plugin did not hand over the kernel');
  return { url: `http://127.0.0.1:${port}`, hub: context, file, folder, logs };
}

/** A browser-less operator: logged in through the console's login form, with the page's CSRF token. */
export async function operatorSession(url: string): Promise<{ cookie: string; csrf: string; headers: (extra?: Record<string, string>) => Record<string, string> }> {
  const first = await fetch(`${url}/console`);
  const html = await first.text();
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = (pair ?? '').indexOf('=');
      jar.set((pair ?? '').slice(0, at), (pair ?? '').slice(at + 1));
    }
  };
  keep(first);
  const cookieOf = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const formToken = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(), origin: url, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ _csrf: formToken, password: PASSWORD, return_to: '/console' }).toString(),
    redirect: 'manual',
  });
  if (login.status !== 303) throw new Error(`login answered ${login.status}`);
  keep(login);
  const page = await fetch(`${url}/console`, { headers: { cookie: cookieOf() } });
  keep(page);
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await page.text())?.[1];
  if (csrf === undefined) throw new Error('the console page carries no CSRF token');
  const cookie = cookieOf();
  return { cookie, csrf, headers: (extra = {}) => ({ cookie, 'x-csrf-token': csrf, origin: url, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', ...extra }) };
}

export interface ServerRow {
  name: string;
  configured: boolean;
  type: string;
  status: string;
  toolCount: number | null;
  lastError: string | null;
  uptimeSeconds: number | null;
  wakes: number;
  entry: Record<string, unknown> | null;
  secrets: { key: string; note: string }[];
}
export interface ServerList {
  file: string | null;
  version: string;
  readOnly: string | null;
  servers: ServerRow[];
}
export interface ApiError {
  code: string;
  message: string;
  key?: string | null;
  diff?: string | null;
  version?: string;
  paste?: string | null;
  reason?: string;
  /** Every field error of an invalid entry. */
  errors?: { key: string | null; message: string }[];
}

export async function listServers(url: string, cookie: string): Promise<ServerList> {
  return (await (await fetch(`${url}/console/api/servers`, { headers: { cookie } })).json()) as ServerList;
}

export async function errorOf(response: Response): Promise<ApiError> {
  return ((await response.json()) as { error: ApiError }).error;
}

/**
 * Makes the config file one the hub cannot write: without write permission for an ordinary
 * user; for root (a container), immutable (`chattr +i`), which even root cannot write.
 * Returns the undo.
 */
export async function makeUnwritable(file: string, folder: string): Promise<() => Promise<void>> {
  if (process.getuid?.() !== 0) {
    await chmod(file, 0o444);
    await chmod(folder, 0o555);
    return () => chmod(folder, 0o755);
  }
  execFileSync('chattr', ['+i', file]);
  return async () => void execFileSync('chattr', ['-i', file]);
}
