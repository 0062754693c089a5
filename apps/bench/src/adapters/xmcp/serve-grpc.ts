import { listenGrpc } from '@x/transport-grpc';
import type { ServerHandle } from '../types.js';
import { createXServer } from './definition.js';

/**
 * The gRPC tunnel with its defaults, except the per-client session rate limit: W4 opens 200 sessions
 * one after another and W5 200 at once from one address, which a production server should refuse.
 */
export async function serve(): Promise<ServerHandle> {
  const server = createXServer();
  const listener = await listenGrpc({
    port: 0,
    sessionRateLimit: false,
    onsession: (transport) => server.connect(transport).then(() => {}),
  });
  return { port: listener.port, close: () => listener.close() };
}
