import type { JSONRPCMessage, RequestId } from './jsonrpc.js';

/**
 * The contract between the protocol engine and anything that moves messages (DESIGN §2).
 *
 * Structurally the same as the official TypeScript SDK's `Transport`, on purpose: a transport from either
 * SDK plugs into the other's `Client`/`Server`.
 */
export interface Transport {
  /** Starts receiving. Called once by `connect()`; a transport may refuse a second call. */
  start(): Promise<void>;
  /** Sends one message. Rejects if the transport is closed or the message cannot be written. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
  /** Closes the transport. Idempotent; `onclose` fires exactly once. */
  close(): Promise<void>;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  /** Transport faults that do not close the connection. Never throws into the engine. */
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

export interface TransportSendOptions {
  /** The incoming request this outgoing message belongs to (for routing on multi-stream transports). */
  relatedRequestId?: RequestId | undefined;
  /** Resume a previously interrupted request stream from this token. */
  resumptionToken?: string | undefined;
  /** Called whenever the resumption token for the outgoing request changes. */
  onresumptiontoken?: ((token: string) => void) | undefined;
  /** Aborting stops a pending send where the transport can (e.g. an HTTP POST). */
  signal?: AbortSignal | undefined;
  /** Extra headers for transports that speak HTTP. */
  headers?: Record<string, string> | undefined;
}

/** Headers as a plain object, readable on every runtime. */
export type IsomorphicHeaders = Record<string, string | string[] | undefined>;

export interface RequestInfo {
  method?: string | undefined;
  url?: URL | undefined;
  headers: IsomorphicHeaders;
}

/** Information about a validated access token, provided to request handlers. */
export interface AuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  expiresAt?: number | undefined;
  resource?: URL | undefined;
  extra?: Record<string, unknown> | undefined;
}

export interface MessageExtraInfo {
  requestInfo?: RequestInfo | undefined;
  authInfo?: AuthInfo | undefined;
  /** Closes the SSE stream of this request (server-side polling, SEP-1699). */
  closeSSEStream?: (() => void) | undefined;
  /** Closes the standalone GET SSE stream. */
  closeStandaloneSSEStream?: (() => void) | undefined;
  /** Aborted when the transport learns the requester went away (e.g. the HTTP response stream closed). */
  signal?: AbortSignal | undefined;
}
