import type { Upstream } from './upstream.js';
import type { AdminCommand, PluginHub } from '../../core/plugin/index.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `hub-admin upstreams status|login|logout <name>`, the shell's twin of the upstreams
 * page. It runs against the same store as the serving hub: `login` prints the URL to
 * open, and the serving hub's callback finishes the login.
 */
export function upstreamsCommand(hub: PluginHub, upstreams: Map<string, Upstream>): AdminCommand {
  const usage = 'upstreams status [<name>] | upstreams login <name> | upstreams logout <name>';
  return {
    name: 'upstreams',
    summary: 'show, log in to and log out of OAuth-protected remote servers',
    usage,
    async run(args) {
      const [action, name] = args;
      if (action === 'status') {
        const chosen = name === undefined ? [...upstreams.values()] : [upstreams.get(name)].filter((one) => one !== undefined);
        if (name !== undefined && chosen.length === 0) return unknown(name);
        for (const upstream of chosen) {
          // A detached hub has no live connection: the store says whether a login is held.
          const status = (await upstream.hasTokens()) ? 'logged-in' : upstream.grant === 'client_credentials' ? 'automatic' : 'unauthorized';
          out(`${upstream.name}\t${status}\tmode=${upstream.settings.mode}\tgrant=${upstream.grant}\tauth=${upstream.clientAuth}`);
        }
        return 0;
      }
      if ((action === 'login' || action === 'logout') && name !== undefined) {
        const upstream = upstreams.get(name);
        if (!upstream) return unknown(name);
        try {
          if (action === 'login') {
            const url = await upstream.startLogin();
            process.stderr.write(`Open this URL in a browser to log the hub in to "${name}"; the hub at ${hub.settings.baseUrl} must be running to receive the callback:\n`);
            out(url.href);
          } else {
            await upstream.logout();
            out(`logged out of ${name}`);
          }
          return 0;
        } catch (error) {
          process.stderr.write(`hub-admin: ${(error as Error).message}\n`);
          return 1;
        }
      }
      process.stderr.write(`usage: hub-admin ${usage}\n`);
      return 2;
    },
  };
}

function unknown(name: string): number {
  process.stderr.write(`hub-admin: no server "${name}" uses upstream OAuth\n`);
  return 2;
}
