import { join } from 'node:path';
import { HUB_ERROR_CODES, HubError, errorMessage } from '../errors.js';
import { lazyStore } from './lazy.js';
import type { Store } from './port.js';

export * from './port.js';

export interface StoreSettings {
  dataPath: string;
  /** `MONGODB_URL`; when set, the MongoDB store, otherwise the embedded one. */
  mongodbUrl?: string | undefined;
}

/** The MongoDB driver and the embedded store's NeDB are imported only by the deployment that uses them. */
export async function openStore(settings: StoreSettings): Promise<Store> {
  if (settings.mongodbUrl) return (await import('./mongodb.js')).openMongoStore(settings.mongodbUrl);
  const { openEmbeddedStore } = await import('./embedded.js');
  return openEmbeddedStore(join(settings.dataPath, 'store')).catch((error: unknown) => {
    throw new HubError(HUB_ERROR_CODES.STORE_UNAVAILABLE, `DATA_PATH (${settings.dataPath}): the embedded store cannot be opened: ${errorMessage(error)}`, {
      cause: error,
    });
  });
}

/** The store the hub hands its plugins: opened on first use. */
export function openStoreLazily(settings: StoreSettings): Store {
  return lazyStore(settings.mongodbUrl ? 'mongodb' : 'embedded', () => openStore(settings));
}
