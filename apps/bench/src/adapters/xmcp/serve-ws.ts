import { listenWebSocket } from '@x/transport-ws/node';
import type { ServeOptions, ServerHandle } from '../types.js';
import { createXServer } from './definition.js';
import { sessionLimit } from './session-limit.js';

/**
 * The WebSocket listener with its defaults, except the per-caller session rate limit (10/s, burst 50):
 * W4 opens 200 sessions one after another and W5 200 at once from one address, as on the other
 * transports. W6 (thousands of sessions) raises `maxSessions` too.
 */
export async function serve(options: ServeOptions = {}): Promise<ServerHandle> {
  const server = createXServer();
  const maxSessions = sessionLimit(options);
  const listener = await listenWebSocket({
    port: 0,
    onsession: (transport) => server.connect(transport).then(() => {}),
    sessionRateLimit: false,
    maxSessions,
  });
  const url = listener.url;
  if (url === undefined) throw new Error('listener has no url');
  return { port: Number(new URL(url).port), close: () => listener.close() };
}
