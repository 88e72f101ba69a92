import { readFileSync } from 'node:fs';

/** The package version, read once: the hub reports it as `hubVersion` and in serverInfo. */
export const HUB_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
