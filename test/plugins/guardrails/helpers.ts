import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Test } from 'tap';
import { tolerantTransport } from '../../../core/children/client/tolerant-transport.js';
import { fixture } from '../../core/children/helpers.js';
import { cliPath } from '../../helpers/cli.js';
import type { Revision } from '../../helpers/clients.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A GitHub personal access token's shape with random characters: no two runs, and no two tokens here, alike. */
export const githubToken = (): string => `ghp_${Array.from({ length: 36 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('')}`;
export const MAX_BYTES = 2048;

/** One road's way to call a server's tool. */
export type Call = (tool: string, args: Record<string, unknown>) => Promise<CallToolResult>;

export const textOf = (result: CallToolResult): string => result.content.map((block) => (block.type === 'text' ? block.text : `<${block.type}>`)).join('\n');

/**
 * The hub config of the guardrail tests: both plugins on, three servers of the `guarded`
 * fixture (stdio): `guarded` with the defaults, `strict` blocking secrets, `roomy` with its
 * own cap and no scanning. Each child notes the calls it hears in `<server>-calls`.
 */
export async function guardrailConfig(): Promise<{ config: Record<string, unknown>; configFile: string; folder: string; leaked: string; heard: (server: string) => Promise<string[]> }> {
  const folder = await mkdtemp(join(tmpdir(), 'guardrails-'));
  const leaked = githubToken();
  const entry = (name: string) => ({ command: process.execPath, args: [fixture('guarded')], env: { GUARDED_SECRET: leaked, FIXTURE_CALLS: join(folder, `${name}-calls`) } });
  const config = {
    plugins: { 'oauth-as': false, 'map-tools': false, 'guard-secrets': true, 'output-limit': { maxBytes: MAX_BYTES } },
    mcpServers: {
      guarded: entry('guarded'),
      strict: { ...entry('strict'), guardSecrets: { mode: 'block' } },
      roomy: { ...entry('roomy'), outputLimit: { maxBytes: 100_000 }, guardSecrets: false },
    },
  };
  const configFile = join(folder, 'mcp.json');
  await writeFile(configFile, JSON.stringify(config));
  const heard = async (server: string) => (await readFile(join(folder, `${server}-calls`), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return { config, configFile, folder, leaked, heard };
}

/** The guardrails' checks on one road (`open` gives its way to call a server). */
export async function checkRoad(t: Test, on: string, open: (server: string) => Promise<Call>, leaked: string, heard: (server: string) => Promise<string[]>): Promise<void> {
  const guarded = await open('guarded');
  const sent = githubToken();
  const echoed = textOf(await guarded('echo_args', { note: `token ${sent} here`, count: 2 }));
  t.notMatch(echoed, sent, `${on}: the secret in the arguments never reached the child`);
  t.same(JSON.parse(echoed), { note: 'token [REDACTED:github] here', count: 2 }, `${on}: the child got the arguments with the secret redacted`);
  t.equal(textOf(await guarded('leak', {})), 'here it is: [REDACTED:github] (keep it safe)', `${on}: the secret in the result is redacted`);

  const strict = await open('strict');
  const before = (await heard('strict')).length;
  const refused = await strict('echo_args', { note: sent });
  t.equal(refused.isError, true, `${on}: block mode refuses the call`);
  t.match(textOf(refused), /refused by plugin "guard-secrets".*\(github\)/, `${on}: naming the plugin and the kind`);
  t.notMatch(textOf(refused), sent, `${on}: never the secret`);
  t.equal((await heard('strict')).length, before, `${on}: the child never heard the refused call`);

  const cut = await guarded('long_text', { size: 3000 });
  const [text, notice, ...rest] = cut.content;
  t.equal(text?.type === 'text' && /^é+$/.test(text.text) && Buffer.byteLength(text.text) <= MAX_BYTES, true, `${on}: the text is cut at a character boundary within the cap`);
  t.equal(rest.length, 0, `${on}: the image past the cap is left out`);
  t.match(
    notice?.type === 'text' ? notice.text : '',
    /output-limit: this result was cut: \d+ of its \d+ bytes and 1 content block .*"offset"/,
    `${on}: the notice says how much was cut and how to read on`,
  );
  const structured = await guarded('big_structured', { count: 200 });
  t.equal(structured.isError, true, `${on}: a structured result over the cap is a tool error`);
  t.match(textOf(structured), /structured result is \d+ bytes, over this server's limit of 2048 bytes/, `${on}: that says so`);
  t.equal(structured.structuredContent, undefined, `${on}: with no truncated structure`);

  const roomy = await open('roomy');
  t.equal(textOf(await roomy('leak', {})), `here it is: ${leaked} (keep it safe)`, `${on}: a server that opts out is not scanned`);
  t.equal((await roomy('long_text', { size: 3000 })).content.length, 2, `${on}: a server's own maxBytes replaces the plugin's`);
}

/** A server's tools through `call_tool` of `/hub` (or hub-stdio). */
export function viaHub(client: Client, server: string, timeout?: number): Call {
  return async (tool, args) => await client.callTool({ name: 'call_tool', arguments: { server, tool, arguments: args } }, timeout === undefined ? {} : { timeout });
}

/** A real hub-stdio process on `config`, driven by an SDK client on `revision`. */
export async function stdioClient(t: { teardown(fn: () => unknown): void }, revision: Revision, config: string, dataPath: string): Promise<Client> {
  const client = new Client({ name: 'guardrails', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath('hub-stdio')],
    env: { HUB_CONFIG: config, DATA_PATH: dataPath, BASE_URL: 'https://hub.example', PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  // The SDK client drops a progress notification that arrives in the same read as its
  // response (modelcontextprotocol/typescript-sdk#2580): over a busy pipe that is every one
  // of them. The hub reads its children through the same remedy; here it lets the test see
  // what hub-stdio wrote, in the order it wrote it.
  await client.connect(tolerantTransport(transport, () => undefined));
  t.teardown(() => client.close());
  return client;
}
