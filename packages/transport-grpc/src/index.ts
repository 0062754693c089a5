export { GrpcClientTransport } from './client-transport.js';
export { GRPC_RECONNECT_DEFAULTS } from './client-options.js';
export type { GrpcClientTls, GrpcClientTransportOptions } from './client-options.js';
export { GrpcServerTransport } from './server-transport.js';
export { addMcpGrpcService, GrpcMcpService } from './mcp-grpc-service.js';
export type {
  DrainOptions,
  GrpcCallerInfo,
  GrpcServiceOptions,
  GrpcSessionContext,
  GrpcSessionRequest,
} from './mcp-grpc-service.js';
export { listenGrpc } from './listen-grpc.js';
export type { GrpcListener, GrpcListenOptions, GrpcServerTls } from './listen-grpc.js';
export { addHealthService, GrpcHealth } from './health-service.js';
export { addMcpNativeService, McpNativeService, NATIVE_PROTOCOL_VERSIONS } from './native-binding.js';
export type { NativeServiceOptions } from './native-binding.js';
export {
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_NATIVE_PROTOCOL_VERSION,
  GrpcNativeClient,
} from './native-client.js';
export type { GrpcNativeClientOptions, NativeInputHandlers } from './native-client.js';
export { UnmappableInputError } from './native-dependent.js';
export type { ServingStatus } from './health-service.js';
export type { GrpcAuthenticate } from './session-auth.js';
export {
  GrpcStatusError,
  InsecureTargetError,
  NativeCallError,
  SendBufferFullError,
  SendStalledError,
} from './errors.js';
export { PROTO_DIR } from './proto-files.js';
export type { JsonRpcLine } from './proto-files.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_RATE_LIMIT,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  SESSION_METHOD_PATH,
  TUNNEL_SERVICE_NAME,
} from './constants.js';
