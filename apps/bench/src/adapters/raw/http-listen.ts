import type { Server } from 'node:http';
import type { ServerHandle } from '../types.js';

/**
 * How long every benchmark HTTP server keeps an idle keep-alive connection: 10 minutes instead of
 * Node's 5 s. Under valgrind (`instructions`) or a loaded machine one connection of a pool can sit idle
 * past 5 s; the server then closes it as the client reuses it and the call fails with ECONNRESET. The
 * same for every SDK's server, so no column gains from it.
 */
const BENCH_KEEP_ALIVE_TIMEOUT_MS = 600_000;

/** Listens on a random free loopback port. */
export async function listenLoopback(server: Server, onClose?: () => void): Promise<ServerHandle> {
  server.keepAliveTimeout = BENCH_KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return {
    port: address.port,
    close: async () => {
      onClose?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
