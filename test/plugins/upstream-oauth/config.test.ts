import Fastify from 'fastify';
import t from 'tap';
import { hub } from '../../../core/kernel.js';
import { newDataPath } from './upstream-hub.js';

async function startWith(servers: Record<string, unknown>, env: Record<string, string> = {}): Promise<void> {
  const dataPath = await newDataPath();
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  try {
    await app.register(hub, {
      config: { mcpServers: servers, plugins: { 'oauth-as': false, 'map-tools': false } },
      env: { DATA_PATH: dataPath, ...env },
      settings: { dataPath },
    });
    await app.ready();
  } finally {
    await app.close();
  }
}

const url = 'https://upstream.example/mcp';

t.test('an oauth entry the plugin cannot use stops the start with the key named', async (t) => {
  await t.rejects(startWith({ a: { url, oauth: { mode: 'static' } } }), { code: 'HUB_ERR_CONFIG_INVALID', message: /server "a": key "oauth.clientId": mode static needs the client_id/ });
  await t.rejects(startWith({ a: { url, oauth: { mode: 'dcr', clientAuth: 'client_secret_jwt' } } }), { code: 'HUB_ERR_CONFIG_INVALID', message: /server "a": key "oauth.clientAuth": expected/ });
  await t.rejects(startWith({ a: { url, oauth: { mode: 'static', clientId: 'x', clientSecretEnv: 'NOT_SET' } } }), {
    code: 'HUB_ERR_CONFIG_INVALID',
    message: /the environment variable NOT_SET \(or NOT_SET_FILE\) is not set/,
  });
  await t.rejects(startWith({ a: { command: 'true', oauth: { mode: 'dcr' } } }), { code: 'HUB_ERR_CONFIG_INVALID', message: /applies to remote servers/ });
  await t.rejects(startWith({ a: { url, oauth: { mode: 'dcr', grant: 'password' } } }), { code: 'HUB_ERR_CONFIG_INVALID', message: /key "oauth.grant"/ });
  await t.resolves(startWith({ a: { url, oauth: { mode: 'static', clientId: 'x', clientSecretEnv: 'SET' } } }, { SET: 'value' }), 'a complete entry starts');
});
