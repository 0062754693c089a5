import { listenWebSocket } from '@x/transport-ws/node';
import type { ServerHandle } from '../types.js';
import { createXServer } from './definition.js';

export async function serve(): Promise<ServerHandle> {
  const server = createXServer();
  const listener = await listenWebSocket({
    port: 0,
    onsession: (transport) => server.connect(transport).then(() => {}),
    // W4/W5 open hundreds of connections from one client address: the per-caller limit would refuse them (429).
    sessionRateLimit: false,
  });
  const url = listener.url;
  if (url === undefined) throw new Error('listener has no url');
  return { port: Number(new URL(url).port), close: () => listener.close() };
}
