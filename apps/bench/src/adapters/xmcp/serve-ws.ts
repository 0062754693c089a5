import { listenWebSocket } from '@x/transport-ws/node';
import type { ServeOptions, ServerHandle } from '../types.js';
import { createXServer } from './definition.js';
import { sessionLimit } from './session-limit.js';

/**
 * The WebSocket listener with its defaults; W6 (thousands of sessions from a few addresses) raises
 * `maxSessions` and turns the per-caller session rate limit off, as W4 and W5 need on the other transports.
 */
export async function serve(options: ServeOptions = {}): Promise<ServerHandle> {
  const server = createXServer();
  const maxSessions = sessionLimit(options);
  const listener = await listenWebSocket({
    port: 0,
    onsession: (transport) => server.connect(transport).then(() => {}),
    ...(maxSessions === undefined ? {} : { maxSessions, sessionRateLimit: false }),
  });
  const url = listener.url;
  if (url === undefined) throw new Error('listener has no url');
  return { port: Number(new URL(url).port), close: () => listener.close() };
}
