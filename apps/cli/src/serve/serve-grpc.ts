import type { ListeningServer } from './listening-server.js';
import type { ServeOptions } from './serve-transports.js';

/**
 * gRPC on one port: the JSON-RPC tunnel (`mcp.transport.v1.Mcp/Session`, both eras), the native
 * protobuf binding (`model_context_protocol.Mcp`) of the same server, and `grpc.health.v1.Health`.
 * Plaintext HTTP/2: TLS needs certificates, which `serve` does not take.
 */
export async function serveGrpc(options: ServeOptions): Promise<ListeningServer> {
  const { listenGrpc } = await import('@x/transport-grpc');
  const connect = (transport: Parameters<ServeOptions['server']['connect']>[0]) =>
    options.server.connect(transport).then(() => {});
  const listener = await listenGrpc({
    port: options.port,
    host: options.host,
    onsession: connect,
    native: { connect },
    onerror: options.onerror,
  });
  return {
    url: `grpc://${listener.target}`,
    done: new Promise(() => {}),
    close: () => listener.close(),
  };
}
