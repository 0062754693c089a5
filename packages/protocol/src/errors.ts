/**
 * JSON-RPC and MCP error codes of every revision.
 *
 * -32700 … -32603 come from JSON-RPC 2.0 itself. -32002 is the legacy "resource not found",
 * -32042 is "URL elicitation required" (2025-11-25), and -32020 … -32022 were added by 2026-07-28
 * (header mismatch, missing client capability, unsupported protocol version).
 * -32000 and -32001 are SDK-local codes for a closed connection and a timed-out request; they never
 * travel on the wire from a conforming peer but are what pending requests are rejected with.
 *
 * @example
 * ```ts
 * if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) {
 *   console.log('the server does not implement this method');
 * }
 * ```
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
  ResourceNotFound: -32002,
  UrlElicitationRequired: -32042,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The one error type of the SDK: every failure that has a JSON-RPC meaning carries its code.
 *
 * @example
 * ```ts
 * throw new McpError(ErrorCode.InvalidParams, 'Unknown tool: frobnicate');
 * ```
 */
export class McpError extends Error {
  override readonly name: string = 'McpError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  /** The wire form for a JSON-RPC error response. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /**
   * Rebuilds an error received on the wire. An answer a transport synthesized for a request it lost
   * (`transportLostResponse`) gives back its `TransportLostError`: a symbol a peer cannot send marks it.
   */
  static fromError(error: { code: number; message: string; data?: unknown }): McpError {
    const lost = (error as { [LOST]?: unknown })[LOST];
    if (lost instanceof McpError) return lost;
    return new McpError(error.code, error.message, error.data);
  }
}

/**
 * Every pending request is rejected with this when the connection closes.
 *
 * @example
 * ```ts
 * try {
 *   await client.ping();
 * } catch (error) {
 *   if (error instanceof ConnectionClosedError) console.log('server went away; reconnect');
 * }
 * ```
 */
export class ConnectionClosedError extends McpError {
  override readonly name: string = 'ConnectionClosedError';
  constructor(message = 'Connection closed', options?: { cause?: unknown; data?: unknown }) {
    super(ErrorCode.ConnectionClosed, message, options?.data, options);
  }
}

/** Marks an error object a transport synthesized (`transportLostResponse`); JSON cannot carry it. */
const LOST: unique symbol = Symbol('x-mcp.transportLost');

/**
 * The connection carrying a request was lost before its answer arrived: the request may or may not
 * have run on the server. One error for every transport that outlives a connection: the WebSocket client
 * with `reconnect`, the stdio client with `restart`, the client's `FailoverTransport`. A client retry
 * policy repeats it like any -32000 (it is a `ConnectionClosedError`); without one, check before
 * repeating a request that changes something. `data` holds the transport's details (close code,
 * exit code, last stderr lines…), `cause` the reason when there is one.
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool({ name: 'transfer', arguments: { amount: 10 } });
 * } catch (error) {
 *   if (error instanceof TransportLostError) console.warn(`lost on ${error.transport}; check before repeating`);
 * }
 * ```
 */
export class TransportLostError extends ConnectionClosedError {
  override readonly name: string = 'TransportLostError';
  /** The transport that was lost: `'websocket'`, `'stdio'`, or a `FailoverTransport` target's `name`. */
  readonly transport: string | undefined;

  constructor(
    message: string,
    options: { transport?: string | undefined; data?: unknown; cause?: unknown } = {},
  ) {
    super(message, options);
    this.transport = options.transport;
  }
}

/**
 * The error answer a transport hands its engine for a request lost with its connection: it rejects that
 * request with `lost` itself (not a copy), and reads as a plain -32000 error response anywhere else.
 *
 * @example
 * ```ts
 * const lost = new TransportLostError('WebSocket dropped; the request may have run', { transport: 'websocket' });
 * for (const id of inFlight) transport.onmessage?.(transportLostResponse(id, lost));
 * ```
 */
export function transportLostResponse(
  id: string | number,
  lost: TransportLostError,
): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string; data?: unknown } } {
  const error = lost.toJSON();
  Object.defineProperty(error, LOST, { value: lost });
  return { jsonrpc: '2.0', id, error };
}

/**
 * The `TransportLostError` behind `error`: `error` itself, or the loss an `outgoingRequest` interceptor
 * replaced with an error of its own (the engine marks that error with the loss, as it marks the answers
 * of `transportLostResponse`). What decides "the connection was lost, re-open on the next one" must not
 * depend on whether an interceptor kept the original error. Internal (`@x/protocol/internal`).
 *
 * @example
 * ```ts
 * if (transportLossOf(error) !== undefined) parkUntilReconnected();
 * ```
 */
export function transportLossOf(error: unknown): TransportLostError | undefined {
  if (error instanceof TransportLostError) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const lost = (error as { [LOST]?: unknown })[LOST];
  return lost instanceof TransportLostError ? lost : undefined;
}

/**
 * Marks `error` (what the interceptors made of a rejection that was `lost`) with that loss, unless it is
 * a loss itself or cannot carry a property (a primitive, a frozen object). Non-enumerable: invisible to
 * JSON and to the user's own checks. Internal.
 */
export function markTransportLoss(error: unknown, lost: TransportLostError): void {
  if (error instanceof TransportLostError || typeof error !== 'object' || error === null) return;
  if (!Object.isExtensible(error) || Object.hasOwn(error, LOST)) return;
  Object.defineProperty(error, LOST, { value: lost });
}

/**
 * A request exceeded its timeout (or its hard maximum when progress kept resetting it).
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool({ name: 'slow-report' }, { timeout: 5_000 });
 * } catch (error) {
 *   if (error instanceof RequestTimeoutError) console.log('gave up after', error.data);
 * }
 * ```
 */
export class RequestTimeoutError extends McpError {
  override readonly name = 'RequestTimeoutError';
  constructor(message: string, data?: { timeout: number; maxTotalTimeout?: number }) {
    super(ErrorCode.RequestTimeout, message, data);
  }
}
