#!/usr/bin/env node
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { userStateFolder } from '../store/data-path.js';
import { openDetachedHub } from '../detached.js';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { HubEndpoint } from '../http/hub-endpoint.js';
import { servedRevisions } from '../revisions/served-revision.js';
import { observe } from '../observe.js';
import { StdioRevisionGate } from '../http/stdio-gate.js';
import { loggerOptions } from '../server.js';
import { settingsFromEnvironment } from '../config/settings.js';
import { parseFlags } from './flags.js';
import { logProcessWarnings } from './process-warnings.js';
import { runCli } from './run.js';
import { logUnhandledRejections } from './unhandled-rejections.js';

const help = (dataPath: { path: string; why: string }) => `Usage: hub-stdio [--help]

Serves the /hub meta-tools over stdin/stdout, from the same config (HUB_CONFIG) and
data (DATA_PATH) as the HTTP hub. No HTTP and no authentication: the local user is the
trust boundary. Logs go to stderr. Both MCP revisions are served. SIGHUP (or saving the
config file) reloads the config.

DATA_PATH, when unset, is ./data when the current folder holds the config file and is
writable; otherwise (a desktop client starts hub-stdio wherever it likes) the per-user
state folder. Here and now that is:
  ${dataPath.path}  (${dataPath.why})
`;

/**
 * Where the data goes when DATA_PATH is unset: ./data only when the current folder is
 * the config's own and writable, since a desktop client starts hub-stdio from a folder of
 * its choosing (often `/`, sometimes one the user never looks in).
 */
function defaultDataPath(env: NodeJS.ProcessEnv): { path: string; why: string } {
  if (env.DATA_PATH?.trim()) return { path: settingsFromEnvironment(env).dataPath, why: 'DATA_PATH' };
  const { configFile, dataPath } = settingsFromEnvironment(env);
  const cwd = process.cwd();
  if (dirname(configFile) === cwd && existsSync(configFile) && writable(cwd)) return { path: dataPath, why: "the config file's folder" };
  return { path: userStateFolder(env), why: `the per-user state folder: ${cwd} ${existsSync(configFile) && dirname(configFile) === cwd ? 'is not writable' : 'does not hold the config file'}` };
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const warningsTo = logProcessWarnings();
const rejectionsTo = logUnhandledRejections();

runCli('hub-stdio', async () => {
  const dataPath = defaultDataPath(process.env);
  const { values } = parseFlags(process.argv.slice(2), { help: { type: 'boolean', short: 'h' } }, help(dataPath));
  if (values.help) return void process.stdout.write(help(dataPath));
  const env = { ...process.env, DATA_PATH: dataPath.path };
  // stdout carries the protocol, so the log goes to stderr.
  const { app, hub } = await openDetachedHub(env, await loggerOptions(env, process.stderr));
  warningsTo(app.log);
  rejectionsTo(app.log, () => observe.unhandledRejection.publish({ hub: hub.identity }));
  app.log.info({ dataPath: dataPath.path }, `data in ${dataPath.path} (${dataPath.why})`);
  const revisions = servedRevisions(hub.revisions.values());
  const [first] = revisions;
  if (!first) throw new StartupError('no MCP revision plugin is enabled', { code: HUB_ERROR_CODES.NO_REVISION });
  if (hub.metaTools.values().length === 0)
    throw new StartupError('hub-stdio serves the tools of /hub, and no plugin adds one (is meta-tools disabled?); enable meta-tools', { code: HUB_ERROR_CODES.STARTUP });
  const endpoint = new HubEndpoint(hub);
  // The SDK serves whichever kind of session opens; the gate lets through only what a served
  // revision claims, and the session's server is built for the revision that claimed it.
  const gate = new StdioRevisionGate(new StdioServerTransport(), revisions);
  serveStdio(() => endpoint.server(gate.revision ?? first), { transport: gate, legacy: 'serve' });
  const shutdown = () => void app.close().finally(() => process.exit(0));
  process.stdin.on('end', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGHUP', () => void hub.reloadConfig('SIGHUP'));
});
