import type { MessagePriority } from './message-priority.js';
import type { JSONRPCMessage, RequestId } from './jsonrpc.js';

/**
 * The settled promise a transport's `send` returns when it handed the message over at once, with nothing
 * left to wait for or to fail later. The engine does not watch this one for a rejection (it cannot reject),
 * which saves a promise and a microtask on every message. Transports that return their own promises are
 * watched as before.
 *
 * @example
 * ```ts
 * send(message: JSONRPCMessage): Promise<void> {
 *   this.#socket.write(`${JSON.stringify(message)}\n`);
 *   return SENT;
 * }
 * ```
 */
export const SENT: Promise<void> = Promise.resolve();

/**
 * The contract between the protocol engine and anything that moves messages (DESIGN §2).
 *
 * Structurally the same as the official TypeScript SDK's `Transport`, on purpose: a transport from either
 * SDK plugs into the other's `Client`/`Server`.
 *
 * @example
 * ```ts
 * // A transport that hands every message to a callback: the five members the engine relies on.
 * class CallbackTransport implements Transport {
 *   onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
 *   onclose?: (() => void) | undefined;
 *   constructor(private readonly deliver: (message: JSONRPCMessage) => void) {}
 *   async start(): Promise<void> {}
 *   async send(message: JSONRPCMessage): Promise<void> { this.deliver(message); }
 *   async close(): Promise<void> { this.onclose?.(); }
 * }
 * ```
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
  /**
   * Why the connection ended, when the transport knows more than "closed" (a stdio server's exit code,
   * signal and last stderr lines; a close code): set before `onclose` fires, left `undefined` for a close
   * this side asked for. The engine rejects the requests still pending with it when it is a
   * `ConnectionClosedError`, and otherwise with a `ConnectionClosedError` carrying its message and cause.
   */
  readonly closeReason?: Error | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
  /**
   * True when the transport opens one underlying request per outgoing JSON-RPC request (Streamable
   * HTTP's POST per request) and so honours `TransportSendOptions.requestSignal`. On 2026-07-28 closing
   * that stream is how a request is cancelled, so a client aborts it instead of sending
   * `notifications/cancelled` (the same flag the official SDK v2 uses).
   */
  readonly hasPerRequestStream?: boolean | undefined;
  /**
   * True for transports whose peer is across a network (WebSocket, Streamable HTTP, legacy HTTP+SSE).
   * A `Client` turns its MCP heartbeat on by default for them (`DEFAULT_HEARTBEAT`): a network link
   * can die silently (a sleeping laptop, a proxy dropping state), while a local peer (stdio, in-memory)
   * shows its death as a closed pipe. Wrapping transports should forward their inner transport's value.
   */
  readonly network?: boolean | undefined;
  /**
   * Set by server transports whose messages unrelated to a request ride a stream the client opens
   * (legacy Streamable HTTP's GET stream): true while that stream is attached in this process. A server
   * sends heartbeat pings only then: "The server MAY send JSON-RPC requests and notifications on the
   * stream" (2025-11-25 Streamable HTTP, "Listening for Messages"), and without the stream a ping could
   * only queue, unanswered, and kill a session whose client simply did not open one. Undefined (every
   * other transport): the connection always carries them.
   */
  readonly hasOpenStream?: boolean | undefined;
  /**
   * Drops the current connection as dead and lets the transport replace it (a failover to its next
   * target, a reconnect) instead of closing: the engine's heartbeat calls it, when present, on a
   * connection it declared dead (spec 2025-11-25 basic/utilities/ping: "After several failed pings, the
   * implementation MAY reset the connection"). Requests in flight on the dropped connection fail as
   * lost, as on any drop; the heartbeat keeps running on the replacement. A transport that cannot replace
   * its connection leaves it unset and is closed instead.
   */
  resetConnection?: ((reason: Error) => void) | undefined;
  /**
   * Fired by transports that re-establish a dropped connection by themselves (e.g. the WebSocket client
   * with `reconnect`), after the new connection is up. The peer may have lost all state: a legacy-era
   * client re-runs its `initialize` handshake here.
   */
  onreconnect?: (() => void) | undefined;
  /**
   * Set by transports that carry each legacy request on a fresh connection with no handshake (stateless
   * Streamable HTTP): the version that request declared. A server serves such a connection as an already
   * initialized legacy session of that version (an `initialize` on it still works).
   */
  readonly statelessLegacyVersion?: string | undefined;
  /** The server's supported versions, for transports that validate the version header themselves. */
  setSupportedProtocolVersions?: ((versions: string[]) => void) | undefined;
}

/**
 * Per-message hints from the engine to the transport; transports ignore what they cannot use.
 *
 * @example
 * ```ts
 * // A progress notification routed to the stream of the request it reports on.
 * await transport.send(
 *   { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 50 } },
 *   { relatedRequestId: 7 },
 * );
 * ```
 */
export interface TransportSendOptions {
  /** The incoming request this outgoing message belongs to (for routing on multi-stream transports). */
  relatedRequestId?: RequestId | undefined;
  /** Resume a previously interrupted request stream from this token. */
  resumptionToken?: string | undefined;
  /** Called whenever the resumption token for the outgoing request changes. */
  onresumptiontoken?: ((token: string) => void) | undefined;
  /**
   * Aborting cancels this message's own underlying request (and its response stream) without closing
   * the transport; transports with one shared channel ignore it. Named as in the official SDK v2.
   */
  requestSignal?: AbortSignal | undefined;
  /**
   * Offered by engines to per-request-stream transports as a cheaper alternative to `requestSignal`:
   * call it once with what closes this message's request on the wire; the engine runs it when it gives
   * the request up. A transport that uses it need not read `requestSignal` (which may then be made on
   * first read). Call it as a method of the options object or detached; both work.
   */
  onRequestCancel?: ((cancel: (reason: unknown) => void) => void) | undefined;
  /** Fired by per-request-stream transports when that stream ends other than by `requestSignal`. */
  onRequestStreamEnd?: (() => void) | undefined;
  /** The caller's own signal for this request; prefer `requestSignal`, which also covers timeouts. */
  signal?: AbortSignal | undefined;
  /** Extra headers for transports that speak HTTP. */
  headers?: Record<string, string> | undefined;
  /**
   * The message's class, set by the engine (which knows the request an answer or a progress
   * notification belongs to). A transport that queues messages sends urgent ones first; when absent it
   * uses `defaultMessagePriority(message)`. See `MessagePriority`.
   */
  priority?: MessagePriority | undefined;
}

/**
 * Headers as a plain object, readable on every runtime.
 *
 * @example
 * ```ts
 * const headers: IsomorphicHeaders = { 'content-type': 'application/json', 'x-forwarded-for': ['10.0.0.1'] };
 * ```
 */
export type IsomorphicHeaders = Record<string, string | string[] | undefined>;

/**
 * The HTTP request a message arrived on, as HTTP transports report it in `MessageExtraInfo`.
 *
 * @example
 * ```ts
 * transport.onmessage = (message, extra) => {
 *   const agent = extra?.requestInfo?.headers['user-agent'];
 *   console.log(extra?.requestInfo?.url?.pathname, agent);
 * };
 * ```
 */
export interface RequestInfo {
  method?: string | undefined;
  url?: URL | undefined;
  headers: IsomorphicHeaders;
  /**
   * The client's IP address as the network server resolved it: the socket's peer, or, when that peer is
   * one of the server's `trustedProxies`, the client the forwarding header names. Undefined when the
   * runtime did not tell the peer. What `rateLimit()` keys an anonymous caller by.
   */
  clientAddress?: string | undefined;
}

/**
 * Information about a validated access token, provided to request handlers.
 *
 * @example
 * ```ts
 * const auth: AuthInfo = {
 *   token: 'eyJhbGciOi...',
 *   clientId: 'my-app',
 *   scopes: ['tools:call'],
 *   expiresAt: Math.floor(Date.now() / 1000) + 3600, // seconds since the epoch
 * };
 * ```
 */
export interface AuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  expiresAt?: number | undefined;
  resource?: URL | undefined;
  extra?: Record<string, unknown> | undefined;
}

/**
 * What a transport knows about an incoming message besides the message itself.
 *
 * @example
 * ```ts
 * transport.onmessage = (message, extra) => {
 *   if (extra?.authInfo && !extra.authInfo.scopes.includes('tools:call')) return;
 *   extra?.signal?.addEventListener('abort', () => console.log('requester went away'));
 * };
 * ```
 */
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
