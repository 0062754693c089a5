import {
  type AuthInfo,
  ErrorCode,
  type JSONRPCMessage,
  type RequestId,
  McpError,
  type MessageExtraInfo,
  parseJsonText,
  SUPPORTED_PROTOCOL_VERSIONS,
  validateMessage,
} from '@x/protocol/core';
import { InFlightSet } from '@x/protocol/transport';
import { HEADER, JSON_MEDIA_TYPE, SSE_MEDIA_TYPE } from '../shared/headers.js';
import { classifyBodiless, classifyPost } from './classify-era.js';
import { streamableHttpCors } from './cors.js';
import type { Caller, EndpointState } from './endpoint-state.js';
import { errorResponse, methodNotAllowed } from './http-responses.js';
import { handleLegacyDelete, handleLegacyGet, handleLegacyPost } from './legacy/legacy-handler.js';
import { SessionStore } from './legacy/session-store.js';
import { isReplyPayload, repliesTopic } from './legacy/session-bus.js';
import { handleModernPost } from './modern/modern-handler.js';
import type { StreamableHttpHandlerOptions, StreamableHttpServerTransport } from './options.js';
import {
  acceptsAll,
  assertWebRequest,
  type CallerInfo,
  type ConnectionInfo,
  createDnsRebindingGuard,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  defaultCallerKey,
  type DnsRebindingGuard,
  type HttpIncoming,
  type IncomingHandler,
  isJsonContentType,
  LazyResponse,
  PayloadTooLargeError,
  principalOf as defaultPrincipal,
  RateLimiter,
  TrustedProxies,
  toPlatformResponse,
  webIncoming,
  type SessionContext,
} from '@x/protocol/http';
import { DEFAULT_MAX_LISTEN_STREAMS } from './listen-streams.js';
import {
  DEFAULT_DRAIN_RETRY_AFTER_SECONDS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_QUEUED_MESSAGES,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
} from './server-defaults.js';
import { boundedStores } from './bounded-options.js';
import { isVisibleSessionId, sessionIdCheck } from './session-id.js';

/**
 * A Web-standard MCP endpoint: `(request) => Promise<Response>` for Node (through `toNodeHandler`),
 * Bun, Deno and Workers, plus `close()` for graceful shutdown.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession: (transport) => mcpServer.connect(transport) });
 * export default { fetch: (request: Request) => handler(request) }; // Workers, Bun, Deno
 * // On shutdown:
 * console.log(`closing ${handler.sessionCount} sessions`);
 * await handler.close();
 * ```
 */
export interface StreamableHttpHandler extends IncomingHandler {
  (request: Request, info?: ConnectionInfo): Promise<Response>;
  /**
   * The same exchange for a runtime adapter that reads the request itself (`toNodeHandler` of
   * `@x/protocol/node`): the answer is a `LazyResponse`, written to the socket without a platform
   * `Response`.
   */
  handleIncoming(incoming: HttpIncoming): Promise<Response>;
  /** Ends every stream and session and refuses further requests (503). */
  close(): Promise<void>;
  /**
   * Graceful shutdown behind a load balancer: refuses new work with 503 and `Retry-After` (with a shared
   * `sessionStore`, every request, since any process serves any session; without one, requests that
   * start a session or carry none), ends the GET streams so clients resume them elsewhere with
   * `Last-Event-ID`, waits for the requests in flight (at most `timeoutMs`, default 30 000), then
   * `close()`s.
   */
  drain(options?: DrainOptions): Promise<void>;
  /** True once `drain()` was called. */
  readonly draining: boolean;
  /** Live legacy sessions. */
  readonly sessionCount: number;
}

/**
 * Options of `StreamableHttpHandler.drain()`.
 *
 * @example
 * ```ts
 * process.on('SIGTERM', async () => {
 *   await handler.drain({ timeoutMs: 10_000 });
 *   process.exit(0);
 * });
 * ```
 */
export interface DrainOptions {
  /**
   * How long requests in flight may take to finish before the handler closes anyway. Default 30 000
   * (`DEFAULT_DRAIN_TIMEOUT_MS`).
   */
  timeoutMs?: number | undefined;
  /** `Retry-After` (seconds) on the 503s while draining. Default 1 (`DEFAULT_DRAIN_RETRY_AFTER_SECONDS`). */
  retryAfterSeconds?: number | undefined;
}

const ALLOW = 'GET, POST, DELETE, OPTIONS';

/**
 * `fn` with its last answer remembered: a client sends the same `Accept` and `Content-Type` on every
 * POST, so parsing them once per distinct value is enough.
 */
function lastValueMemo(fn: (header: string | null) => boolean): (header: string | null) => boolean {
  let last: string | null | undefined;
  let answer = false;
  return (header) => {
    if (header !== last) {
      answer = fn(header);
      last = header;
    }
    return answer;
  };
}

function randomInstanceId(): string {
  let out = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(8))) out += byte.toString(16).padStart(2, '0');
  return out;
}

function defaultSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Creates the MCP endpoint for both eras (legacy 2025-03-26 … 2025-11-25 with sessions, and modern
 * 2026-07-28, stateless). Every new transport goes to `onsession`; connect it to your server there.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({
 *   onsession: (transport) => server.connect(transport),
 * });
 * Bun.serve({ port: 3000, fetch: (request) => handler(request) });
 * // node:http (`toNodeHandler` from './node'): createServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 * ```
 */
export function createStreamableHttpHandler(options: StreamableHttpHandlerOptions): StreamableHttpHandler {
  const maxBodyBytes = options.maxMessageBytes ?? options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const path = options.path;
  const cors = streamableHttpCors(options.cors);
  const protection = options.dnsRebindingProtection;
  const guard: DnsRebindingGuard | undefined =
    protection === false
      ? undefined
      : createDnsRebindingGuard(typeof protection === 'object' ? protection : {});
  const generate = options.sessionIdGenerator ?? defaultSessionId;
  const principalOf = options.sessionPrincipal ?? defaultPrincipal;
  // Built up front so a bad entry fails at construction, naming the option.
  const proxies =
    options.trustedProxies === undefined ? undefined : new TrustedProxies(options.trustedProxies);
  const callerKey = options.callerKey ?? defaultCallerKey;
  const acceptsPost = lastValueMemo((header) => acceptsAll(header, [JSON_MEDIA_TYPE, SSE_MEDIA_TYPE]));
  const stores = boundedStores(options);
  let closed = false;
  /** The 503 answered while draining; undefined while not. */
  let drainRefusal: { retryAfter: string } | undefined;

  const state: EndpointState = {
    options,
    settings: {
      json: options.enableJsonResponse === true,
      eventStore: stores.eventStore,
      retryMs: options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
      keepAliveMs: options.keepAliveMs ?? DEFAULT_SSE_KEEP_ALIVE_MS,
      maxQueued: options.maxQueuedMessages ?? DEFAULT_MAX_QUEUED_MESSAGES,
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_STREAM_BUFFERED_BYTES,
      shared:
        stores.messageBus === undefined
          ? undefined
          : { bus: stores.messageBus, instanceId: options.instanceId ?? randomInstanceId() },
    },
    sessionsEnabled: options.sessions !== false,
    sessions: new SessionStore({
      idleTimeoutMs: options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
      maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    }),
    sharedSessions: stores.sessionStore,
    isSessionId: sessionIdCheck(options.sessionIdGenerator !== undefined),
    sharedReady: undefined,
    adopting: new Map(),
    live: new InFlightSet(),
    supported: options.supportedProtocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS,
    parse: { maxNestingDepth: options.maxNestingDepth },
    sessionRate:
      options.sessionRateLimit === false ? undefined : new RateLimiter(options.sessionRateLimit ?? {}),
    listenStreams: new Set(),
    maxListenStreams: options.maxListenStreams ?? DEFAULT_MAX_LISTEN_STREAMS,
    paramHeaders: options.paramHeaders,
    newSessionId: () => {
      const id = generate();
      if (!isVisibleSessionId(id)) {
        throw new TypeError('Session ids must be visible ASCII (0x21-0x7E), at most 256 characters');
      }
      return id;
    },
    connect: async (transport: StreamableHttpServerTransport, context: SessionContext) => {
      try {
        await options.onsession(transport, context);
        return undefined;
      } catch (error) {
        state.onerror(error);
        await transport.close();
        return errorResponse(500, ErrorCode.InternalError, 'Internal error: could not connect the session');
      }
    },
    onerror: (error: unknown) => options.onerror?.(error instanceof Error ? error : new Error(String(error))),
  };
  const shared = state.settings.shared;
  if (shared !== undefined) {
    // Answers to server→client requests this process sent, POSTed to another process (session-bus.ts).
    state.sharedReady = shared.bus
      .subscribe(repliesTopic(shared.instanceId), (payload) => {
        if (isReplyPayload(payload)) state.sessions.find(payload.s)?.deliverReply(payload.m);
      })
      .catch((error: unknown) => {
        state.onerror(error);
        return undefined;
      });
  }

  /** One checked message, or a batch whose elements `readBatch` checks once the session's version is known. */
  async function readMessages(request: HttpIncoming): Promise<JSONRPCMessage | unknown[] | LazyResponse> {
    let text: string;
    try {
      text = await request.readText(maxBodyBytes);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        return errorResponse(
          413,
          ErrorCode.InvalidRequest,
          `Content Too Large: ${error.message} (maxMessageBytes)`,
        );
      }
      return errorResponse(400, ErrorCode.ParseError, 'Parse error: the body is not UTF-8');
    }
    let value: unknown;
    try {
      // Depth is checked before JSON.parse builds anything (issue #24, item 4).
      value = parseJsonText(text, state.parse);
    } catch (error) {
      const message =
        error instanceof McpError && error.data !== undefined
          ? error.message
          : 'Parse error: the body is not JSON';
      return errorResponse(400, ErrorCode.ParseError, message, {
        data: error instanceof McpError ? error.data : undefined,
      });
    }
    try {
      if (!Array.isArray(value)) return validateMessage(value);
      if (value.length === 0) throw new Error('An empty batch is not a JSON-RPC message');
      return value;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // JSON-RPC 2.0 §5: the id is null only "if there was an error in detecting the id".
      const id = error instanceof McpError ? (error.data as { id?: RequestId } | undefined)?.id : undefined;
      return errorResponse(400, ErrorCode.InvalidRequest, `Invalid Request: ${message}`, { id });
    }
  }

  async function post(request: HttpIncoming, extra: MessageExtraInfo, caller: Caller): Promise<Response> {
    // "The client MUST include an Accept header, listing both application/json and text/event-stream".
    if (!acceptsPost(request.headers.get(HEADER.accept))) {
      return errorResponse(
        406,
        ErrorCode.InvalidRequest,
        'Not Acceptable: the client must accept both application/json and text/event-stream',
      );
    }
    if (!isJsonContentType(request.headers.get(HEADER.contentType))) {
      return errorResponse(415, ErrorCode.InvalidRequest, 'Unsupported Media Type: send application/json');
    }
    const body = await readMessages(request);
    if (body instanceof LazyResponse) return body;
    return classifyPost(request.headers, body) === 'modern'
      ? handleModernPost(state, request, body as JSONRPCMessage, extra, caller.context)
      : handleLegacyPost(state, request, body, extra, caller);
  }

  async function route(request: HttpIncoming): Promise<Response> {
    if (path !== undefined && request.url.pathname !== path) {
      return errorResponse(404, ErrorCode.InvalidRequest, `Not Found: the MCP endpoint is ${path}`);
    }
    if (closed) return errorResponse(503, ErrorCode.InternalError, 'Service Unavailable: shutting down');
    if (
      drainRefusal !== undefined &&
      (state.sharedSessions !== undefined || request.headers.get(HEADER.sessionId) === null)
    ) {
      // A load balancer retries these on another instance (Retry-After: RFC 9110 §10.2.3).
      return errorResponse(503, ErrorCode.InternalError, 'Service Unavailable: this instance is draining', {
        headers: { 'retry-after': drainRefusal.retryAfter },
      });
    }
    if (request.method === 'OPTIONS') return cors?.preflight(request) ?? methodNotAllowed(ALLOW);
    // The guard reads only `headers.get` and `url`, which every HttpIncoming has.
    // The guard checks Origin on every bind and Host on loopback (or against allowedHosts when given).
    const refused = guard?.(request, request.localAddress);
    // "If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden."
    if (refused !== undefined) return errorResponse(403, ErrorCode.InvalidRequest, `Forbidden: ${refused}`);
    // Without a hook nothing here names the global `Response` (see `LazyResponse`).
    let auth: AuthInfo | undefined;
    if (options.authenticate !== undefined) {
      const result = await options.authenticate(request.toRequest());
      if (result instanceof Response) return result;
      auth = result;
    }
    const peerAddress = request.remoteAddress;
    const clientAddress =
      proxies === undefined ? peerAddress : proxies.clientAddress(peerAddress, request.headers);
    const extra: MessageExtraInfo = {
      requestInfo: {
        method: request.method,
        url: request.url,
        headers: request.headerRecord(),
        clientAddress,
      },
      authInfo: auth,
    };
    const principal = auth === undefined ? undefined : principalOf(auth);
    const caller: Caller = {
      principal,
      // A getter: under the node adapter the `Request` is only built when `onsession` reads it.
      context: {
        get request() {
          return request.toRequest();
        },
        authInfo: auth,
        clientAddress,
      },
      key: () => {
        const info: CallerInfo = {
          authInfo: auth,
          principal,
          peerAddress,
          clientAddress,
          headers: request.headers,
        };
        return callerKey(info);
      },
    };
    switch (request.method) {
      case 'POST':
        return post(request, extra, caller);
      case 'GET':
        // 2026-07-28 "Earlier Streamable HTTP Revisions": "HTTP GET or DELETE ...: respond with 405".
        return classifyBodiless(request.headers) === 'modern'
          ? methodNotAllowed('POST')
          : handleLegacyGet(state, request, extra, caller);
      case 'DELETE':
        return classifyBodiless(request.headers) === 'modern'
          ? methodNotAllowed('POST')
          : handleLegacyDelete(state, request, caller);
      default:
        return methodNotAllowed(ALLOW);
    }
  }

  /** The whole exchange; the answer is a `LazyResponse` unless a hook made its own. */
  const dispatch = async (request: HttpIncoming): Promise<Response> => {
    let response: Response;
    try {
      response = await route(request);
    } catch (error) {
      state.onerror(error);
      response = errorResponse(500, ErrorCode.InternalError, 'Internal error');
    }
    if (cors === undefined) return response;
    return cors.apply(request, response);
  };

  const handler = async (request: Request, info?: ConnectionInfo): Promise<Response> => {
    // `http.createServer(handler)` passes Node's (req, res): refuse it loudly instead of hanging.
    assertWebRequest(request, info, '@x/transport-streamable-http/node');
    return toPlatformResponse(await dispatch(webIncoming(request, info)));
  };

  const close = async (): Promise<void> => {
    closed = true;
    const live = [...state.live];
    state.live.clear();
    await Promise.all([state.sessions.closeAll(), ...live.map((t) => t.close())]);
    const unsubscribe = (await state.sharedReady) as (() => Promise<void>) | undefined;
    await unsubscribe?.().catch(state.onerror);
  };

  const busy = (): boolean => {
    if (state.live.size > 0) return true;
    for (const session of state.sessions.values()) if (session.pendingRequests > 0) return true;
    return false;
  };

  const drain = async (drainOptions: DrainOptions = {}): Promise<void> => {
    if (closed) return;
    drainRefusal = {
      retryAfter: String(drainOptions.retryAfterSeconds ?? DEFAULT_DRAIN_RETRY_AFTER_SECONDS),
    };
    for (const session of state.sessions.values()) session.handOver();
    const deadline = Date.now() + (drainOptions.timeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
    // Requests end on their own schedule (a tool may run for seconds): checked every 20 ms, not per message.
    while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await close();
  };

  return Object.defineProperties(handler, {
    // The node:http adapter's way in: no Web Request, and bodies it writes straight to the socket.
    handleIncoming: { value: dispatch },
    close: { value: close },
    drain: { value: drain },
    draining: { get: () => drainRefusal !== undefined },
    sessionCount: { get: () => state.sessions.size },
  }) as StreamableHttpHandler;
}
