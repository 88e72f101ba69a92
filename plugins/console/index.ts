import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { CallRate } from './call-rate.js';
import { CallRing } from './call-ring.js';
import { registerCallsApi } from './calls-api.js';
import { registerOverviewApi } from './overview-api.js';
import { registerPlayground } from './playground.js';
import { registerServerActions } from './server-actions.js';
import { ServerFigures } from './server-figures.js';
import { registerServersApi } from './servers-api.js';
import { CONSOLE_PATH, registerShell } from './shell.js';
import { registerTokensApi } from './tokens-api.js';

/**
 * The operator console, `/console`: one page behind the operator login (`hub.operator`:
 * session, CSRF, same-origin checks) and its JSON API under `/console/api`, which accepts
 * the operator session only. Servers are edited in the config file (`hub.configFile`),
 * checked as a reload checks them, and tested apart from the running hub.
 */
export default definePlugin({
  ...manifest,
  reservedPaths: [CONSOLE_PATH.slice(1)],
  options: Type.Object(
    {
      callsKept: Type.Integer({ minimum: 0, maximum: 100_000, default: 500, description: 'Tool calls the calls view keeps (a ring: the oldest goes); 0 keeps none and listens to no call.' }),
      callsHeartbeatSeconds: Type.Integer({ minimum: 1, maximum: 300, default: 15, description: "Seconds between the calls stream's heartbeat comments, well below any proxy's idle timeout." }),
    },
    { additionalProperties: false },
  ),
  async register(app, options, hub) {
    const startedAt = Date.now();
    const figures = new ServerFigures(hub);
    const calls = new CallRing(hub, options.callsKept);
    // callsKept 0 promises that the console listens to no call: the minute's count is off too.
    const rate = options.callsKept === 0 ? undefined : new CallRate(hub.observe);
    app.addHook('onClose', async () => {
      calls.close();
      rate?.close();
    });
    hub.pages.add('console', { title: 'Console', path: CONSOLE_PATH });
    await hub.operator.pages(app, (context) => {
      registerShell(context, hub);
      registerServersApi(context, hub, figures);
      registerPlayground(context, hub);
      registerServerActions(context, hub);
      registerTokensApi(context, hub);
      registerCallsApi(context, hub, calls, { heartbeatSeconds: options.callsHeartbeatSeconds });
      registerOverviewApi(context, hub, rate, startedAt);
    });
  },
});
