import { closeHttp, listenHttp } from '../serve/http-listen.js';
import type { ListeningServer } from '../serve/listening-server.js';
import type { ServeOptions, ServeProtection } from '../serve/serve-transports.js';

/**
 * The bridge's WebSocket front (subprotocol `mcp`) at `/mcp`, one bridge session per connection. With
 * `protect` (`--auth-*`), the upgrade must carry the bearer token (401 with a challenge otherwise) and
 * the port also serves the Protected Resource Metadata. The resource a token names is the `http:` form
 * of the URL, what the upgrade request's target is (and what a WebSocket client's OAuth provider takes).
 */
export async function serveWsFront(options: ServeOptions): Promise<ListeningServer> {
  const { createWebSocketHandler } = await import('@x/transport-ws/node');
  const routes = new Map<string, ServeProtection['serveMetadata']>();
  const { server, url } = await listenHttp({
    host: options.host,
    port: options.port,
    path: '/mcp',
    handle: (_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
      res.end('This endpoint speaks MCP over WebSocket (subprotocol "mcp").\n');
    },
    routes,
  });
  // Nothing is attached to `upgrade` until the protection exists: no connection is ever unchecked.
  const protection = await options.protect?.(url).catch(async (error: unknown) => {
    await closeHttp(server);
    throw error;
  });
  if (protection !== undefined) routes.set(protection.metadataPath, protection.serveMetadata);
  const handler = createWebSocketHandler({
    server,
    path: '/mcp',
    onsession: (transport) => options.server.connect(transport).then(() => {}),
    onerror: options.onerror,
    ...(protection === undefined ? {} : { authenticate: protection.authenticate }),
  });
  const wsUrl = new URL(url);
  wsUrl.protocol = 'ws:';
  return {
    url: wsUrl.href,
    done: new Promise(() => {}),
    close: async () => {
      await handler.close();
      await closeHttp(server);
    },
  };
}
