import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { Test } from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { connectClient, REVISIONS, type Revision } from '../../helpers/clients.js';
import { adminBeside } from '../../helpers/admin.js';
import { cliPath, runNode } from '../../helpers/cli.js';
import { startHubBin, type HubBinOptions } from '../../helpers/hub-bin.js';

/** The fixture whose `redescribe` changes the description of `mutable`, and whose `add_tool` adds `extra_<n>`. */
export const changingEntry = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [fixture('changing-tools')], ...extra });

/** The tools of the fixture, sorted. */
export const CHANGING_TOOLS = ['add_prompt', 'add_tool', 'bump', 'echo', 'mutable', 'redescribe', 'subscriptions'];

/**
 * The hub CLI with `changing` pinning its tools (and `plain`, the same fixture, not), and
 * hub-admin beside it: its own process when `adminProcess` is set (where two processes on
 * one store are the subject), else its commands run in this process on the same config and
 * store (see adminBeside).
 */
export async function pinningHub(t: Test, options: { plugin?: Record<string, unknown>; dataPath?: string; folder?: string; adminProcess?: boolean } = {}) {
  const config: HubBinOptions['config'] = {
    mcpServers: { changing: changingEntry({ pinTools: true }), plain: changingEntry() },
    plugins: { 'map-tools': false, 'oauth-as': false, ...(options.plugin && { 'tool-pinning': options.plugin }) },
  };
  const hub = await startHubBin(t, { config, env: { LOG_LEVEL: 'info' }, ...(options.dataPath && { dataPath: options.dataPath }), ...(options.folder && { folder: options.folder }) });
  const admin = options.adminProcess ? (...args: string[]) => runNode(cliPath('hub-admin'), args, hub.env) : adminBeside(hub.env);
  return { ...hub, admin };
}

/** A client on `/<server>/mcp` and one on `/hub`, per revision. */
export async function clientsOf(t: Test, url: string, server: string): Promise<{ revision: Revision; own: Client; hub: Client }[]> {
  return Promise.all(REVISIONS.map(async (revision) => ({ revision, own: await connectClient(t, `${url}/${server}/mcp`, revision), hub: await connectClient(t, `${url}/hub`, revision) })));
}

/** The names a client lists on a server's own endpoint, sorted. */
export async function ownTools(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** The names list_tools gives for `server` on /hub, sorted. */
export async function hubTools(client: Client, server: string): Promise<string[]> {
  const result = await client.callTool({ name: 'list_tools', arguments: { server } });
  return ((result.structuredContent as { tools?: { name: string }[] }).tools ?? []).map((tool) => tool.name).sort();
}

/** `server`'s entry in list_servers. */
export async function serverEntry(client: Client, server: string): Promise<{ toolCount?: number; withheldTools?: string[] } | undefined> {
  const result = await client.callTool({ name: 'list_servers', arguments: {} });
  return (result.structuredContent as { servers: { name: string; toolCount?: number; withheldTools?: string[] }[] }).servers.find((entry) => entry.name === server);
}

/** The text of a tool result, and whether it is an error. */
export function textOf(result: unknown): { isError: boolean; text: string } {
  const { content, isError } = result as CallToolResult;
  const [block] = content;
  return { isError: isError === true, text: block?.type === 'text' ? block.text : '' };
}
