// A forwarding proxy with no MCP in it: the body in, one fetch to the child, the answer
// out. The carriage bench measures it beside the hub, as the floor of any extra HTTP hop
// on the machine at hand.
import { createServer, type Server } from 'node:http';

export async function startBareProxy(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers.set(name, value);
      }
      const upstream = await fetch(target, { method: request.method, headers, ...(request.method === 'POST' && { body: Buffer.concat(chunks) }) });
      const body = Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      response.end(body);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`, server };
}
