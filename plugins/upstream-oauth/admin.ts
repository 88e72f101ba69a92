import type { Upstream } from './upstream.js';
import { declaredCommand, type AdminCommand, type AdminOutput, type PluginHub } from '../../core/plugin/index.js';
import manifest from './manifest.js';

/**
 * `hub-admin upstreams status|login|logout <name>`, the shell's twin of the upstreams
 * page. It runs against the same store as the serving hub: `login` prints the URL to
 * open, and the serving hub's callback finishes the login.
 */
export function upstreamsCommand(hub: PluginHub, upstreams: Map<string, Upstream>): AdminCommand {
  const declared = declaredCommand(manifest, 'upstreams');
  const { usage } = declared;
  return {
    ...declared,
    async run(args, output) {
      const out = (line: string) => output.stdout(`${line}\n`);
      const [action, name] = args;
      if (action === 'status') {
        const chosen = name === undefined ? [...upstreams.values()] : [upstreams.get(name)].filter((one) => one !== undefined);
        if (name !== undefined && chosen.length === 0) return unknown(output, name);
        for (const upstream of chosen) {
          // A detached hub has no live connection: the store says whether a login is held.
          const status = (await upstream.hasTokens()) ? 'logged-in' : upstream.grant === 'client_credentials' ? 'automatic' : 'unauthorized';
          out(`${upstream.name}\t${status}\tmode=${upstream.settings.mode}\tgrant=${upstream.grant}\tauth=${upstream.clientAuth}`);
        }
        return 0;
      }
      if ((action === 'login' || action === 'logout') && name !== undefined) {
        const upstream = upstreams.get(name);
        if (!upstream) return unknown(output, name);
        try {
          if (action === 'login') {
            const url = await upstream.startLogin();
            output.stderr(`Open this URL in a browser to log the hub in to "${name}"; the hub at ${hub.settings.baseUrl} must be running to receive the callback:\n`);
            out(url.href);
          } else {
            await upstream.logout();
            out(`logged out of ${name}`);
          }
          return 0;
        } catch (error) {
          output.stderr(`hub-admin: ${(error as Error).message}\n`);
          return 1;
        }
      }
      output.stderr(`usage: hub-admin ${usage}\n`);
      return 2;
    },
  };
}

function unknown(output: AdminOutput, name: string): number {
  output.stderr(`hub-admin: no server "${name}" uses upstream OAuth\n`);
  return 2;
}
