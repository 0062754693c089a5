// Shared with every transport: the same limit has the same default everywhere (issue #36).
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_RATE_LIMIT,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
} from '@x/protocol/transport';

/** The tunnel's full method path, as published (`package mcp.transport.v1; service Mcp; rpc Session`). */
export const SESSION_METHOD_PATH = '/mcp.transport.v1.Mcp/Session';

/** The service name `grpc.health.v1.Health` reports for the tunnel. */
export const TUNNEL_SERVICE_NAME = 'mcp.transport.v1.Mcp';

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
 * Room the gRPC message limit leaves above `maxMessageBytes` for the frame's other fields
 * (`related_request_id`, `resumption_token`) and the protobuf framing. A `line` over `maxMessageBytes`
 * that fits in it is dropped and reported; one past it ends the stream (`RESOURCE_EXHAUSTED`).
 */
export const FRAME_OVERHEAD_BYTES = 64 * 1024;
