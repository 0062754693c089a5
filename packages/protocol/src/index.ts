export { ConnectionClosedError, ErrorCode, McpError, RequestTimeoutError } from './errors.js';
export {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCResultResponse,
  JSONRPC_VERSION,
  parseMessage,
  serializeMessage,
  validateMessage,
} from './jsonrpc.js';
export type {
  JSONRPCErrorObject,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  JSONRPCResultResponse,
  MetaObject,
  ProgressToken,
  RequestId,
} from './jsonrpc.js';
export type {
  AuthInfo,
  IsomorphicHeaders,
  MessageExtraInfo,
  RequestInfo,
  Transport,
  TransportSendOptions,
} from './transport.js';
export {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  eraOf,
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  negotiateLegacyVersion,
  pickCommonVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './versions.js';
export type { Era, LegacyProtocolVersion, ModernProtocolVersion, ProtocolVersion } from './versions.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  encodeJsonLine,
  JsonLineDecoder,
  MessageTooLargeError,
} from './transports/json-line-decoder.js';
export type { JsonLineDecoderOptions, JsonLineDecoderSink } from './transports/json-line-decoder.js';
export { InMemoryTransport } from './transports/in-memory-transport.js';
