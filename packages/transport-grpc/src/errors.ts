import { ConnectionClosedError } from '@x/protocol/transport';
import { type Metadata, status as Status } from '@grpc/grpc-js';

/** `UNAVAILABLE (14)`: a status code's name and number, as every message of this package shows it. */
export function statusName(code: number): string {
  const name = (Status as unknown as Record<number, string | undefined>)[code];
  return `${name ?? 'UNKNOWN'} (${code})`;
}

/**
 * A gRPC call ended with a status other than OK: a refused stream (`UNAUTHENTICATED`, `RESOURCE_EXHAUSTED`
 * for `maxSessions` or `sessionRateLimit`), a deadline, a server that ended the stream with an error.
 * The status travels in `code` and in the message.
 *
 * @example
 * ```ts
 * try {
 *   await client.connect(new GrpcClientTransport('127.0.0.1:50051'));
 * } catch (error) {
 *   if (error instanceof GrpcStatusError && error.status === status.UNAUTHENTICATED) login();
 * }
 * ```
 */
export class GrpcStatusError extends ConnectionClosedError {
  override readonly name: string = 'GrpcStatusError';
  /** The gRPC status code (`status.UNAUTHENTICATED` = 16, …); `code` stays the JSON-RPC -32000. */
  readonly status: number;
  /** The status details the server sent. */
  readonly details: string;

  /** The trailing metadata (`www-authenticate` of a refused stream, `retry-after` …). */
  readonly trailers: Metadata | undefined;

  constructor(
    what: string,
    code: number,
    details: string,
    options: { cause?: unknown; trailers?: Metadata | undefined } = {},
  ) {
    super(`${what}: ${statusName(code)}${details === '' ? '' : `: ${details}`}`, {
      cause: options.cause,
      data: { grpcStatus: code, details },
    });
    this.status = code;
    this.details = details;
    this.trailers = options.trailers;
  }
}

/**
 * The peer stopped reading: more than `maxQueuedBytes` of messages waited for the stream. The stream is
 * ended; the requests pending on it fail at once with this error.
 *
 * @example
 * ```ts
 * transport.onerror = (error) => {
 *   if (error instanceof SendBufferFullError) console.warn('peer too slow:', error.message);
 * };
 * ```
 */
export class SendBufferFullError extends ConnectionClosedError {
  override readonly name: string = 'SendBufferFullError';
  constructor(limit: number) {
    super(`More than ${limit} bytes waited to be sent (maxQueuedBytes): the peer is not reading`, {
      data: { limit: 'maxQueuedBytes', maxQueuedBytes: limit },
    });
  }
}

/**
 * No message left the stream for `sendStallTimeoutMs` while some waited: the peer stopped reading.
 *
 * @example
 * ```ts
 * if (transport.closeReason instanceof SendStalledError) reconnectLater();
 * ```
 */
export class SendStalledError extends ConnectionClosedError {
  override readonly name: string = 'SendStalledError';
  constructor(timeoutMs: number) {
    super(`No message left the stream for ${timeoutMs} ms (sendStallTimeoutMs): the peer is not reading`, {
      data: { limit: 'sendStallTimeoutMs', sendStallTimeoutMs: timeoutMs },
    });
  }
}

/**
 * A client transport would send credentials or messages in clear text to a host that is not loopback.
 *
 * @example
 * ```ts
 * new GrpcClientTransport('mcp.internal:50051', { allowInsecure: true }); // a mesh encrypts for us
 * ```
 */
export class InsecureTargetError extends Error {
  override readonly name = 'InsecureTargetError';
  constructor(target: string) {
    super(
      `Refusing a plaintext gRPC channel to ${target}, which is not a loopback address: pass tls (or credentials), or allowInsecure: true`,
    );
  }
}

/**
 * A call of the native binding (`model_context_protocol.Mcp`) failed: the gRPC status, and the exact
 * JSON-RPC error code from the `mcp-error-code` trailer when the server sent one.
 *
 * @example
 * ```ts
 * try {
 *   await native.callTool('missing', {});
 * } catch (error) {
 *   if (error instanceof NativeCallError && error.mcpErrorCode === -32602) showUsage();
 * }
 * ```
 */
export class NativeCallError extends Error {
  override readonly name = 'NativeCallError';
  /** The gRPC status code. */
  readonly status: number;
  /** The JSON-RPC error code of the `mcp-error-code` trailer; undefined without one. */
  readonly mcpErrorCode: number | undefined;

  constructor(method: string, status: number, details: string, mcpErrorCode: number | undefined) {
    const code = mcpErrorCode === undefined ? '' : ` (mcp-error-code ${mcpErrorCode})`;
    super(`${method}: ${statusName(status)}${details === '' ? '' : `: ${details}`}${code}`);
    this.status = status;
    this.mcpErrorCode = mcpErrorCode;
  }
}
