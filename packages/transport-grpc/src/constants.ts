// Shared with every transport: the same limit has the same default everywhere (issue #36).
export {
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_RATE_LIMIT,
} from '@x/protocol/transport';

/** The tunnel's full method path, as published (`package mcp.transport.v1; service Mcp; rpc Session`). */
export const SESSION_METHOD_PATH = '/mcp.transport.v1.Mcp/Session';

/** The service name `grpc.health.v1.Health` reports for the tunnel. */
export const TUNNEL_SERVICE_NAME = 'mcp.transport.v1.Mcp';

/**
 * Unsent bytes one stream may hold in gRPC and HTTP/2 (written, not yet taken by the peer's flow-control
 * window): a message that finds it this full waits in the send queue (bounded by `maxQueuedBytes`)
 * until the stream drains. Two maximal messages, as on the WebSocket transport.
 *
 * @example
 * ```ts
 * new GrpcClientTransport('127.0.0.1:50051', { maxBufferedBytes: 2 * DEFAULT_MAX_BUFFERED_BYTES });
 * ```
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * How long messages may wait without one leaving the stream before the peer counts as not reading:
 * the stream is ended with `SendStalledError`, which fails the requests pending on it at once.
 *
 * @example
 * ```ts
 * await listenGrpc({ port: 50051, sendStallTimeoutMs: 10_000, onsession });
 * ```
 */
export const DEFAULT_SEND_STALL_TIMEOUT_MS = 30_000;

/**
 * HTTP/2 keepalive: how often a PING goes out on a connection (`grpc.keepalive_time_ms`). A peer that
 * does not answer within `DEFAULT_KEEP_ALIVE_TIMEOUT_MS` is dropped. Same value as the WebSocket
 * transport's `keepAliveMs`.
 *
 * @example
 * ```ts
 * new GrpcClientTransport('127.0.0.1:50051', { keepAliveMs: DEFAULT_KEEP_ALIVE_MS / 2 });
 * ```
 */
export const DEFAULT_KEEP_ALIVE_MS = 30_000;

/**
 * How long a keepalive PING may wait for its answer (`grpc.keepalive_timeout_ms`).
 *
 * @example
 * ```ts
 * new GrpcClientTransport(target, { keepAliveTimeoutMs: 2 * DEFAULT_KEEP_ALIVE_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 10_000;

/**
 * How long `start()` of a client waits for the channel to connect and the server to accept the stream.
 *
 * @example
 * ```ts
 * new GrpcClientTransport(target, { connectTimeoutMs: 2 * DEFAULT_CONNECT_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long `drain()` waits for requests in flight on open sessions before ending them anyway.
 *
 * @example
 * ```ts
 * await grpc.drain({ timeoutMs: DEFAULT_DRAIN_TIMEOUT_MS * 2 });
 * ```
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/**
 * Room the gRPC message limit leaves above `maxMessageBytes` for the frame's other fields
 * (`related_request_id`, `resumption_token`) and the protobuf framing. A `line` over `maxMessageBytes`
 * that fits in it is dropped and reported; one past it ends the stream (`RESOURCE_EXHAUSTED`).
 */
export const FRAME_OVERHEAD_BYTES = 64 * 1024;
