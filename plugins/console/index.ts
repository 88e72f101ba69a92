import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';
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
  options: Type.Object({}, { additionalProperties: false }),
  async register(app, _options, hub) {
    const figures = new ServerFigures(hub);
    hub.pages.add('console', { title: 'Console', path: CONSOLE_PATH });
    await hub.operator.pages(app, (context) => {
      registerShell(context, hub);
      registerServersApi(context, hub, figures);
      registerPlayground(context, hub);
      registerServerActions(context, hub);
      registerTokensApi(context, hub);
    });
  },
});
