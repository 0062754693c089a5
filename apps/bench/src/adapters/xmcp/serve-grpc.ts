import { listenGrpc } from '@x/transport-grpc';
import type { ServeOptions, ServerHandle } from '../types.js';
import { createXServer } from './definition.js';
import { sessionLimit } from './session-limit.js';

/**
 * The gRPC tunnel with its defaults, except the per-client session rate limit: W4 opens 200 sessions
 * one after another and W5 200 at once from one address, which a production server should refuse.
 * W6 raises `maxSessions` to the sessions it holds.
 */
export async function serve(options: ServeOptions = {}): Promise<ServerHandle> {
  const server = createXServer();
  const listener = await listenGrpc({
    port: 0,
    sessionRateLimit: false,
    maxSessions: sessionLimit(options),
    onsession: (transport) => server.connect(transport).then(() => {}),
  });
  return { port: listener.port, close: () => listener.close() };
}
