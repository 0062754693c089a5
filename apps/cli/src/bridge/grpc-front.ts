import type { ListeningServer } from '../serve/listening-server.js';
import type { ServeOptions } from '../serve/serve-transports.js';

/**
 * The bridge's gRPC front: the MCP tunnel (`mcp.transport.v1.Mcp/Session`) plus the health service,
 * one bridge session per stream. Its URL is `grpc://host:port`, what a `GrpcClientTransport` (and
 * `x-mcp … grpc://…`) takes. Kept here, not in `serve/`, so the bridge owns its fronts' wiring.
 */
export async function serveGrpc(options: ServeOptions): Promise<ListeningServer> {
  const { listenGrpc } = await import('@x/transport-grpc');
  const listener = await listenGrpc({
    port: options.port,
    host: options.host,
    onsession: (transport) => options.server.connect(transport),
    onerror: options.onerror,
  });
  return {
    url: `grpc://${listener.target}`,
    done: new Promise(() => {}),
    close: () => listener.close(),
  };
}
