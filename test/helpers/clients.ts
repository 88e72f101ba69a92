import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';

export const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
export type Revision = (typeof REVISIONS)[number];

/** A v2 SDK client on the given revision, connected to `url` and closed at teardown. */
export async function connectClient(t: { teardown(fn: () => unknown): void }, url: string, revision: Revision, headers: Record<string, string> = {}, options: ClientOptions = {}): Promise<Client> {
  const client = new Client({ name: 'hub-test', version: '1.0.0' }, { ...options, ...(revision === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  t.teardown(() => client.close());
  return client;
}
