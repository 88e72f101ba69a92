import { StartupError, errorMessage } from '../errors.js';
import type { Child } from '../children/child.js';
import { openDetachedHub } from '../detached.js';
import { settingsFromEnvironment } from '../config/settings.js';

/** A back-off longer than any start timeout (and the longest a timer takes): `--connect` makes one attempt. */
const NO_SECOND_ATTEMPT_MS = 2 ** 31 - 1;

export interface ServerCheck {
  name: string;
  type?: string;
  status: 'ok' | 'problem' | 'disabled';
  /** What was looked at, or what is wrong (the first problem when there are several). */
  detail: string;
  /** Every problem of the entry, `detail` first, when the checker found more than one (each field error of an entry). */
  problems?: string[];
  /** With `--connect`: how the MCP handshake went. */
  handshake?: { ok: boolean; detail: string };
}

export interface CheckReport {
  ok: boolean;
  config: string;
  /** Problems that stop the hub from starting at all (a setting, the JSON, a plugin). */
  problems: string[];
  warnings: string[];
  servers: ServerCheck[];
}

/**
 * `hub check`: the config as the hub would read it, without serving: settings, JSON,
 * plugins and every server entry; each entry's type checks what it can without starting
 * anything (a command on PATH, an image present, a URL that parses); with `connect`, each
 * server is also started (or connected to) until it answers the MCP handshake, then
 * stopped.
 */
export async function checkConfig(env: NodeJS.ProcessEnv, connect: boolean): Promise<CheckReport> {
  const warnings: string[] = [];
  const leftOut = new Map<string, string[]>();
  let config = 'the built-in defaults';
  let opened;
  try {
    config = settingsFromEnvironment(env).configFile;
    const logger = { level: 'warn', stream: { write: (line: string) => void warnings.push(String((JSON.parse(line) as { msg?: unknown }).msg)) } };
    opened = await openDetachedHub(env, logger, { leftOut: (problem, server) => leftOut.set(server, [...(leftOut.get(server) ?? []), problem]) });
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    return { ok: false, config, problems: error.problems, warnings, servers: [] };
  }
  const { app, hub } = opened;
  try {
    const servers: ServerCheck[] = [];
    const entries = Object.entries(hub.config.mcpServers ?? {});
    for (const [name, entry] of entries) {
      if (entry.disabled === true) servers.push({ name, status: 'disabled', detail: '"disabled": true: not served' });
      const [problem, ...more] = leftOut.get(name) ?? [];
      if (problem !== undefined) servers.push({ name, status: 'problem', detail: problem, ...(more.length > 0 && { problems: [problem, ...more] }) });
    }
    // What starting servers logs is in each server's line; the warnings are the config's.
    const configWarnings = [...warnings];
    const children = hub.children.all();
    // One attempt each, within the server's own start timeout, with the real cause: no back-off fits in it.
    hub.children.configure({ backoffBaseMs: NO_SECOND_ATTEMPT_MS, backoffMaxMs: NO_SECOND_ATTEMPT_MS });
    servers.push(
      ...(await Promise.all(
        children.map((child) =>
          checkServer(
            child,
            hub.configDirectory,
            connect,
            entries.some(([name]) => name === child.name),
          ),
        ),
      )),
    );
    servers.sort((a, b) => a.name.localeCompare(b.name));
    const ok = servers.every((server) => server.status !== 'problem' && server.handshake?.ok !== false);
    return { ok, config, problems: [], warnings: configWarnings, servers };
  } finally {
    await app.close();
  }
}

async function checkServer(child: Child, configDirectory: string, connect: boolean, configured: boolean): Promise<ServerCheck> {
  const type = child.childType.type;
  if (child.blocked !== undefined) return { name: child.name, type, status: 'problem', detail: child.blocked };
  const checked = configured
    ? ((await child.childType.check?.(child.entry, { configDirectory }).catch((error: unknown) => ({ ok: false, detail: errorMessage(error) }))) ?? {
        ok: true,
        detail: `the ${type} type checks nothing before a start`,
      })
    : { ok: true, detail: 'provided by a plugin' };
  const report: ServerCheck = { name: child.name, type, status: checked.ok ? 'ok' : 'problem', detail: checked.detail };
  if (!connect || !checked.ok) return report;
  try {
    await child.ensureUp();
    const identity = child.serverInfo === undefined ? 'the server' : `${child.serverInfo.name} ${child.serverInfo.version}`.trim();
    report.handshake = { ok: true, detail: `${identity} answered the MCP handshake (MCP ${child.revision ?? 'unknown'}, ${child.tools.length} tools)` };
  } catch (error) {
    report.handshake = { ok: false, detail: (error as Error).message };
  } finally {
    await child.disconnect('stopped');
  }
  return report;
}

/** The report as an operator reads it: one line per server, then the verdict. */
export function formatReport(report: CheckReport): string {
  const lines = [`config: ${report.config}`];
  for (const problem of report.problems) lines.push(`  problem   ${problem}`);
  for (const warning of report.warnings) lines.push(`  warning   ${warning}`);
  const width = Math.max(0, ...report.servers.map((server) => server.name.length));
  for (const server of report.servers) {
    const label = server.status === 'problem' || server.handshake?.ok === false ? 'problem' : server.status;
    const what = `${server.name.padEnd(width)}  ${server.type ? `${server.type}: ` : ''}${server.detail}`;
    lines.push(`  ${label.padEnd(9)} ${what}${server.handshake ? `; ${server.handshake.detail}` : ''}`);
    for (const more of server.problems?.slice(1) ?? []) lines.push(`  ${label.padEnd(9)} ${server.name.padEnd(width)}  ${server.type ? `${server.type}: ` : ''}${more}`);
  }
  const failing = report.problems.length + report.servers.filter((server) => server.status === 'problem' || server.handshake?.ok === false).length;
  lines.push(
    report.problems.length > 0
      ? 'the hub would not start'
      : failing > 0
        ? `${failing} ${failing === 1 ? 'server' : 'servers'} would fail; the hub would start without ${failing === 1 ? 'it' : 'them'}`
        : report.servers.length === 0
          ? 'no servers are configured: the hub would serve only /hub (servers go under "mcpServers")'
          : `all ${report.servers.length} servers checked out`,
  );
  return `${lines.join('\n')}\n`;
}
