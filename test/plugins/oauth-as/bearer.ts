import { connectClient, type Revision } from '../../helpers/clients.js';

/** A v2 SDK client on /hub presenting `token`, and its first list_servers call. */
export async function listServersWith(t: Parameters<typeof connectClient>[0], url: string, revision: Revision, token: string) {
  const client = await connectClient(t, `${url}/hub`, revision, { authorization: `Bearer ${token}` });
  return { client, result: await client.callTool({ name: 'list_servers', arguments: {} }) };
}

/** The status of a bare ping on /hub with `token`: 401 when the hub refuses it. */
export async function bearerStatus(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/hub`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status;
}
