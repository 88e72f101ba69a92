import { createServer, type AddressInfo, type Server } from 'node:net';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * Listens on a loopback port the OS picks and returns it; at teardown the server is
 * closed, open keep-alive connections included, so the test process can end.
 */
export async function listenOnLoopback(t: Teardown, server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        if (closesConnections(server)) server.closeAllConnections();
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** A port the OS just handed out, so that BASE_URL can name it before the hub listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An HTTP(S) server's, which a plain net.Server lacks. */
function closesConnections(server: Server): server is Server & { closeAllConnections(): void } {
  return 'closeAllConnections' in server && typeof server.closeAllConnections === 'function';
}
