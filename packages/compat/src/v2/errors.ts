// The error classes and codes of the official 2.x packages. A JSON-RPC error from the peer is x-mcp's
// `McpError`, exported under 2.x's name `ProtocolError` (same `code`, `message`, `data`).
export { McpError as ProtocolError } from '@x/protocol';

/**
 * The JSON-RPC error codes of 2.x's `ProtocolErrorCode` (its members, without the numeric reverse
 * mapping of a TypeScript enum).
 *
 * @example
 * ```ts
 * throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'city is required');
 * ```
 */
export const ProtocolErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  UrlElicitationRequired: -32042,
} as const;
export type ProtocolErrorCode = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];

/** The JSON-RPC error code constants of 2.x. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/**
 * The codes of 2.x's `SdkError` (local failures: not connected, timeouts, …).
 *
 * @example
 * ```ts
 * if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) retry();
 * ```
 */
export const SdkErrorCode = {
  NotConnected: 'NOT_CONNECTED',
  AlreadyConnected: 'ALREADY_CONNECTED',
  NotInitialized: 'NOT_INITIALIZED',
  CapabilityNotSupported: 'CAPABILITY_NOT_SUPPORTED',
  RequestTimeout: 'REQUEST_TIMEOUT',
  ConnectionClosed: 'CONNECTION_CLOSED',
  SendFailed: 'SEND_FAILED',
  InvalidResult: 'INVALID_RESULT',
  UnsupportedResultType: 'UNSUPPORTED_RESULT_TYPE',
  InputRequiredRoundsExceeded: 'INPUT_REQUIRED_ROUNDS_EXCEEDED',
  ListPaginationExceeded: 'LIST_PAGINATION_EXCEEDED',
  MethodNotSupportedByProtocolVersion: 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION',
  EraNegotiationFailed: 'ERA_NEGOTIATION_FAILED',
  ClientHttpNotImplemented: 'CLIENT_HTTP_NOT_IMPLEMENTED',
  ClientHttpAuthentication: 'CLIENT_HTTP_AUTHENTICATION',
  ClientHttpForbidden: 'CLIENT_HTTP_FORBIDDEN',
  ClientHttpUnexpectedContent: 'CLIENT_HTTP_UNEXPECTED_CONTENT',
  ClientHttpFailedToOpenStream: 'CLIENT_HTTP_FAILED_TO_OPEN_STREAM',
  ClientHttpFailedToTerminateSession: 'CLIENT_HTTP_FAILED_TO_TERMINATE_SESSION',
} as const;
export type SdkErrorCode = (typeof SdkErrorCode)[keyof typeof SdkErrorCode];

/**
 * 2.x's `SdkError`, for code that throws or matches it. x-mcp's own local failures are its
 * `McpError` (`ConnectionClosed` -32000, `RequestTimeout` -32001) and `TransportLostError`, not this.
 *
 * @example
 * ```ts
 * throw new SdkError(SdkErrorCode.NotConnected, 'connect first');
 * ```
 */
export class SdkError extends Error {
  override readonly name: string = 'SdkError';
  readonly code: SdkErrorCode;
  readonly data: unknown;

  constructor(code: SdkErrorCode, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}
