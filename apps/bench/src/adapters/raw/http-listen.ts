import type { Server } from 'node:http';
import type { ServerHandle } from '../types.js';

/** Listens on a random free loopback port. */
export async function listenLoopback(server: Server, onClose?: () => void): Promise<ServerHandle> {
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
