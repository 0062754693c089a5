import type { HttpAuthenticate } from '@x/protocol/http';
import type { ListeningServer } from '../serve/listening-server.js';
import type { ServeOptions } from '../serve/serve-transports.js';

/**
 * The bridge's gRPC front: the MCP tunnel (`mcp.transport.v1.Mcp/Session`) plus the health service,
 * one bridge session per stream. Its URL is `grpc://host:port`, what a `GrpcClientTransport` (and
 * `x-mcp … grpc://…`) takes. Kept here, not in `serve/`, so the bridge owns its fronts' wiring.
 *
 * With `protect` (`--auth-*`), every stream's `authorization` metadata is checked: a refusal is
 * `UNAUTHENTICATED` with the challenge in the trailers. gRPC has no HTTP route for the Protected
 * Resource Metadata; the resource a token names is `http://host:port/` (or `--auth-audience`).
 */
export async function serveGrpc(options: ServeOptions): Promise<ListeningServer> {
  const { listenGrpc } = await import('@x/transport-grpc');
  // The protection needs the bound port (`--port 0`); until it is set, streams are refused (503 →
  // UNAVAILABLE), never let through.
  let current: HttpAuthenticate | undefined;
  const listener = await listenGrpc({
    port: options.port,
    host: options.host,
    onsession: (transport) => options.server.connect(transport),
    onerror: options.onerror,
    ...(options.protect === undefined
      ? {}
      : {
          authenticate: (request: Request) =>
            current?.(request) ?? new Response(null, { status: 503, headers: { 'retry-after': '1' } }),
        }),
  });
  if (options.protect !== undefined) {
    const resource = new URL(`http://${listener.target}/`);
    current = await options.protect(resource).then(
      (protection) => protection.authenticate,
      async (error: unknown) => {
        await listener.close();
        throw error;
      },
    );
  }
  return {
    url: `grpc://${listener.target}`,
    done: new Promise(() => {}),
    close: () => listener.close(),
  };
}
