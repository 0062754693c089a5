import { type ChannelOptions, Server, ServerCredentials } from '@grpc/grpc-js';
import {
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  FRAME_OVERHEAD_BYTES,
  TUNNEL_SERVICE_NAME,
} from './constants.js';
import { addHealthService, type GrpcHealth } from './health-service.js';
import { addMcpNativeService, type NativeServiceOptions } from './native-binding.js';
import {
  addMcpGrpcService,
  type DrainOptions,
  type GrpcMcpService,
  type GrpcServiceOptions,
} from './mcp-grpc-service.js';

/**
 * Server-side TLS: the server's certificate chain and key (PEM), and for mTLS the CA that client
 * certificates must chain to.
 *
 * @example
 * ```ts
 * const tls: GrpcServerTls = { cert, key, ca, requireClientCert: true }; // mTLS
 * ```
 */
export interface GrpcServerTls {
  cert: string | Buffer;
  key: string | Buffer;
  /** Roots for client certificates (mTLS). */
  ca?: string | Buffer | undefined;
  /** Refuse connections without a client certificate that chains to `ca`. Default: true when `ca` is given. */
  requireClientCert?: boolean | undefined;
}

/**
 * Options of `listenGrpc(options)`: the service options plus the server's own.
 *
 * @example
 * ```ts
 * const grpc = await listenGrpc({ port: 50051, host: '0.0.0.0', tls: { cert, key }, onsession });
 * ```
 */
export interface GrpcListenOptions extends GrpcServiceOptions {
  /** Port; 0 picks a free one. */
  port: number;
  /**
   * Interface to bind. Default `'127.0.0.1'`: loopback unless you say otherwise.
   *
   * @default '127.0.0.1'
   */
  host?: string | undefined;
  /** TLS (and mTLS with `ca`); without it the server speaks plaintext HTTP/2. */
  tls?: GrpcServerTls | undefined;
  /** Ready-made server credentials instead of `tls`. */
  credentials?: ServerCredentials | undefined;
  /**
   * HTTP/2 keepalive PINGs to each client connection this often; one unanswered within
   * `keepAliveTimeoutMs` drops the connection. 0 disables. Default `DEFAULT_KEEP_ALIVE_MS` (30 s).
   *
   * @default {@link DEFAULT_KEEP_ALIVE_MS}
   */
  keepAliveMs?: number | undefined;
  /**
   * How long a keepalive PING may go unanswered. Default `DEFAULT_KEEP_ALIVE_TIMEOUT_MS` (10 s).
   *
   * @default {@link DEFAULT_KEEP_ALIVE_TIMEOUT_MS}
   */
  keepAliveTimeoutMs?: number | undefined;
  /**
   * Also serve the native protobuf binding (`model_context_protocol.Mcp`, unary RPCs) of an MCP server:
   * `{ connect: (transport) => mcpServer.connect(transport) }`. Default: the tunnel only.
   */
  native?: NativeServiceOptions | undefined;
  /**
   * Adds `grpc.health.v1.Health`. Default true.
   *
   * @default true
   */
  health?: boolean | undefined;
  /** Further `grpc.Server` options (they win over the ones this function derives). */
  serverOptions?: ChannelOptions | undefined;
}

/**
 * A running gRPC server with the MCP tunnel (and the health service): its address, its parts, and a
 * graceful stop. `await using` closes it.
 *
 * @example
 * ```ts
 * await using grpc = await listenGrpc({ port: 0, onsession });
 * new GrpcClientTransport(grpc.target);
 * ```
 */
export interface GrpcListener extends AsyncDisposable {
  /** The bound port. */
  readonly port: number;
  /** `host:port`, what a `GrpcClientTransport` takes. */
  readonly target: string;
  readonly server: Server;
  readonly service: GrpcMcpService;
  readonly health: GrpcHealth | undefined;
  /** Health `NOT_SERVING`, new streams refused, requests in flight answered, then the server stops. */
  drain(options?: DrainOptions): Promise<void>;
  /** Ends every session and stops the server now. */
  close(): Promise<void>;
}

/**
 * Starts a gRPC server of its own that serves the MCP tunnel (`mcp.transport.v1.Mcp/Session`) and
 * `grpc.health.v1.Health`, and hands each stream to `onsession` as a `GrpcServerTransport`.
 *
 * @example
 * ```ts
 * const grpc = await listenGrpc({
 *   port: 50051,
 *   onsession: (transport) => mcpServer.connect(transport),
 * });
 * console.log(grpc.target); // 127.0.0.1:50051
 * ```
 */
export async function listenGrpc(options: GrpcListenOptions): Promise<GrpcListener> {
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const server = new Server({
    'grpc.max_receive_message_length': maxMessageBytes + FRAME_OVERHEAD_BYTES,
    'grpc.max_send_message_length': maxMessageBytes + FRAME_OVERHEAD_BYTES,
    ...(keepAliveMs > 0
      ? {
          'grpc.keepalive_time_ms': keepAliveMs,
          'grpc.keepalive_timeout_ms': options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
        }
      : {}),
    ...options.serverOptions,
  });
  const service = addMcpGrpcService(server, options);
  if (options.native !== undefined) {
    addMcpNativeService(server, { authenticate: options.authenticate, ...options.native });
  }
  const health =
    options.health === false
      ? undefined
      : addHealthService(server, { '': 'SERVING', [TUNNEL_SERVICE_NAME]: 'SERVING' });
  service.ondrain = () => health?.setAll('NOT_SERVING');
  const host = options.host ?? '127.0.0.1';
  const address = host.includes(':') ? `[${host}]:${options.port}` : `${host}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, credentialsOf(options), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  let stopped: Promise<void> | undefined;
  const stop = (end: () => Promise<void>): Promise<void> => {
    stopped ??= end().then(
      () =>
        new Promise<void>((resolve) => {
          health?.endWatches();
          server.tryShutdown(() => resolve());
          // Streams that outlive the drain (a peer that never half-closes) must not hold the process.
          setTimeout(() => server.forceShutdown(), 1_000).unref();
        }),
    );
    return stopped;
  };
  return {
    port,
    target,
    server,
    service,
    health,
    drain: (drainOptions) => stop(() => service.drain(drainOptions)),
    close: () => stop(() => service.close()),
    [Symbol.asyncDispose]: () => stop(() => service.close()),
  };
}

function credentialsOf(options: GrpcListenOptions): ServerCredentials {
  if (options.credentials !== undefined) return options.credentials;
  const tls = options.tls;
  if (tls === undefined) return ServerCredentials.createInsecure();
  const ca = tls.ca === undefined ? null : Buffer.from(tls.ca);
  return ServerCredentials.createSsl(
    ca,
    [{ cert_chain: Buffer.from(tls.cert), private_key: Buffer.from(tls.key) }],
    tls.requireClientCert ?? ca !== null,
  );
}
