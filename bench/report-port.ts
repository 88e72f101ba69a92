import type { Server } from 'node:http';

/**
 * Serves `server` on a free loopback port, prints the port on stdout for the parent bench
 * (measure.ts reads it), and exits when the parent closes this process's stdin.
 */
export function listenAndReportPort(server: Server): void {
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
  });
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
