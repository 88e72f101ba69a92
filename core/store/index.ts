import { join } from 'node:path';
import { openEmbeddedStore } from './embedded.js';
import { lazyStore } from './lazy.js';
import { openMongoStore } from './mongodb.js';
import type { Store } from './port.js';

export * from './port.js';

export interface StoreSettings {
  dataPath: string;
  /** `MONGODB_URL`; when set, the MongoDB store, otherwise the embedded one. */
  mongodbUrl?: string | undefined;
}

export function openStore(settings: StoreSettings): Promise<Store> {
  return settings.mongodbUrl ? openMongoStore(settings.mongodbUrl) : openEmbeddedStore(join(settings.dataPath, 'store'));
}

/** The store the hub hands its plugins: opened on first use. */
export function openStoreLazily(settings: StoreSettings): Store {
  return lazyStore(settings.mongodbUrl ? 'mongodb' : 'embedded', () => openStore(settings));
}
