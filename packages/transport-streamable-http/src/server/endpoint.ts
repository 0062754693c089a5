import {
  type AuthInfo,
  ErrorCode,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type ParseOptions,
  SUPPORTED_PROTOCOL_VERSIONS,
  type SessionStore as SharedSessionStore,
} from '@x/protocol/core';
import {
  acceptsAll,
  type CallerInfo,
  type CallerKey,
  type Cors,
  createDnsRebindingGuard,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  defaultCallerKey,
  type DnsRebindingGuard,
  type HttpIncoming,
  isJsonContentType,
  LazyResponse,
  principalOf as defaultPrincipal,
  RateLimiter,
  type SessionContext,
  TrustedProxies,
} from '@x/protocol/http';
import { InFlightSet, renamedOption } from '@x/protocol/transport';
import { HEADER, JSON_MEDIA_TYPE, SSE_MEDIA_TYPE } from '../shared/headers.js';
import type { ParamHeader } from '../shared/param-headers.js';
import { boundedStores } from './bounded-options.js';
import { classifyBodiless, classifyPost } from './classify-era.js';
import { streamableHttpCors } from './cors.js';
import type { Caller, EndpointState } from './endpoint-state.js';
import { errorResponse, methodNotAllowed } from './http-responses.js';
import { handleLegacyDelete, handleLegacyGet, handleLegacyPost } from './legacy/legacy-handler.js';
import { isReplyPayload, repliesTopic } from './legacy/session-bus.js';
import { SessionStore } from './legacy/session-store.js';
import type { SessionSettings } from './legacy/session-transport.js';
import { DEFAULT_MAX_LISTEN_STREAMS } from './listen-streams.js';
import { handleModernPost } from './modern/modern-handler.js';
import type { StreamableHttpHandlerOptions, StreamableHttpServerTransport } from './options.js';
import { readMessages } from './read-messages.js';
import {
  DEFAULT_DRAIN_RETRY_AFTER_SECONDS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_QUEUED_MESSAGES,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
} from './server-defaults.js';
import { defaultSessionId, isVisibleSessionId, sessionIdCheck } from './session-id.js';

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
/** How often `drain()` looks whether the requests in flight are done (they end on their own schedule). */
const DRAIN_POLL_MS = 20;

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

/** The session settings `options` ask for, every default filled in. */
function sessionSettings(
  options: StreamableHttpHandlerOptions,
  stores: ReturnType<typeof boundedStores>,
): SessionSettings {
  return {
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
  };
}

/**
 * One MCP endpoint of both eras, the state behind `createStreamableHttpHandler`: its fields are what
 * every request shares (the session table, the live per-request transports, the resolved options),
 * its methods the steps of one exchange. `handleIncoming` runs the checks every request passes (path,
 * shutdown, CORS preflight, DNS rebinding, authentication), names the caller, and hands the request to
 * its era: `modern/modern-handler.ts` or `legacy/legacy-handler.ts`, which receive this endpoint as
 * their `EndpointState`. `close` and `drain` end it.
 */
export class StreamableHttpEndpoint implements EndpointState {
  readonly options: StreamableHttpHandlerOptions;
  readonly settings: SessionSettings;
  readonly sessionsEnabled: boolean;
  readonly sessions: SessionStore;
  readonly sharedSessions: SharedSessionStore | undefined;
  readonly isSessionId: (id: string) => boolean;
  sharedReady: Promise<unknown> | undefined;
  readonly adopting = new Map<string, Promise<unknown>>();
  readonly live = new InFlightSet<{ close(): Promise<void> }>();
  readonly supported: readonly string[];
  readonly parse: ParseOptions;
  readonly sessionRate: RateLimiter | undefined;
  readonly listenStreams = new Set<object>();
  readonly maxListenStreams: number;
  readonly paramHeaders: ((toolName: string) => readonly ParamHeader[] | undefined) | undefined;

  readonly #maxMessageBytes: number;
  readonly #path: string | undefined;
  readonly #cors: Cors | undefined;
  readonly #guard: DnsRebindingGuard | undefined;
  readonly #generateSessionId: () => string;
  readonly #principalOf: (auth: AuthInfo) => string | undefined;
  readonly #proxies: TrustedProxies | undefined;
  readonly #callerKey: CallerKey;
  readonly #acceptsPost = lastValueMemo((header) => acceptsAll(header, [JSON_MEDIA_TYPE, SSE_MEDIA_TYPE]));
  #closed = false;
  /** The `Retry-After` of the 503 answered while draining; undefined while not draining. */
  #drainRetryAfter: string | undefined;

  constructor(options: StreamableHttpHandlerOptions) {
    this.options = options;
    const stores = boundedStores(options);
    this.settings = sessionSettings(options, stores);
    this.sessionsEnabled = options.sessions !== false;
    this.sessions = new SessionStore({
      idleTimeoutMs: options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
      maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    });
    this.sharedSessions = stores.sessionStore;
    this.isSessionId = sessionIdCheck(options.sessionIdGenerator !== undefined);
    this.supported = options.supportedProtocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
    this.parse = { maxNestingDepth: options.maxNestingDepth };
    this.sessionRate =
      options.sessionRateLimit === false ? undefined : new RateLimiter(options.sessionRateLimit ?? {});
    this.maxListenStreams = options.maxListenStreams ?? DEFAULT_MAX_LISTEN_STREAMS;
    this.paramHeaders = options.paramHeaders;

    this.#maxMessageBytes =
      renamedOption(options, 'maxMessageBytes', 'maxBodyBytes', 'createStreamableHttpHandler') ??
      DEFAULT_MAX_MESSAGE_BYTES;
    this.#path = options.path;
    this.#cors = streamableHttpCors(options.cors);
    const protection = options.dnsRebindingProtection;
    this.#guard =
      protection === false
        ? undefined
        : createDnsRebindingGuard(typeof protection === 'object' ? protection : {});
    this.#generateSessionId = options.sessionIdGenerator ?? defaultSessionId;
    this.#principalOf = options.sessionPrincipal ?? defaultPrincipal;
    // Built up front so a bad entry fails at construction, naming the option.
    this.#proxies =
      options.trustedProxies === undefined ? undefined : new TrustedProxies(options.trustedProxies);
    this.#callerKey = options.callerKey ?? defaultCallerKey;
    this.#subscribeToReplies();
  }

  /** True once `drain()` was called. */
  get draining(): boolean {
    return this.#drainRetryAfter !== undefined;
  }

  /** Live legacy sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  newSessionId(): string {
    const id = this.#generateSessionId();
    if (!isVisibleSessionId(id)) {
      throw new TypeError('Session ids must be visible ASCII (0x21-0x7E), at most 256 characters');
    }
    return id;
  }

  async connect(
    transport: StreamableHttpServerTransport,
    context: SessionContext,
  ): Promise<Response | undefined> {
    try {
      await this.options.onsession(transport, context);
      return undefined;
    } catch (error) {
      this.onerror(error);
      await transport.close();
      return errorResponse(500, ErrorCode.InternalError, 'Internal error: could not connect the session');
    }
  }

  /** A property, not a method: the era handlers pass it on as a callback (`.catch(state.onerror)`). */
  readonly onerror = (error: unknown): void => {
    this.options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  };

  /**
   * The whole exchange; the answer is a `LazyResponse` unless a hook made its own. A property, so the
   * handler hands it to `toNodeHandler` as it is.
   */
  readonly handleIncoming = async (request: HttpIncoming): Promise<Response> => {
    let response: Response;
    try {
      response = await this.#route(request);
    } catch (error) {
      this.onerror(error);
      response = errorResponse(500, ErrorCode.InternalError, 'Internal error');
    }
    const cors = this.#cors;
    if (cors === undefined) return response;
    return cors.apply(request, response);
  };

  /** Ends every stream and session and refuses further requests (503). */
  async close(): Promise<void> {
    this.#closed = true;
    const live = [...this.live];
    this.live.clear();
    await Promise.all([this.sessions.closeAll(), ...live.map((transport) => transport.close())]);
    const unsubscribe = (await this.sharedReady) as (() => Promise<void>) | undefined;
    await unsubscribe?.().catch(this.onerror);
  }

  /** See `StreamableHttpHandler.drain`. */
  async drain(options: DrainOptions = {}): Promise<void> {
    if (this.#closed) return;
    this.#drainRetryAfter = String(options.retryAfterSeconds ?? DEFAULT_DRAIN_RETRY_AFTER_SECONDS);
    for (const session of this.sessions.values()) session.handOver();
    const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
    // Requests end on their own schedule (a tool may run for seconds): polled, not watched per message.
    while (this.#busy() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
    await this.close();
  }

  /** Whether a request is still being answered: a per-request transport, or a session's request. */
  #busy(): boolean {
    if (this.live.size > 0) return true;
    for (const session of this.sessions.values()) if (session.pendingRequests > 0) return true;
    return false;
  }

  /** Answers to server→client requests this process sent, POSTed to another process (session-bus.ts). */
  #subscribeToReplies(): void {
    const shared = this.settings.shared;
    if (shared === undefined) return;
    this.sharedReady = shared.bus
      .subscribe(repliesTopic(shared.instanceId), (payload) => {
        if (isReplyPayload(payload)) this.sessions.find(payload.s)?.deliverReply(payload.m);
      })
      .catch((error: unknown) => {
        this.onerror(error);
        return undefined;
      });
  }

  async #route(request: HttpIncoming): Promise<Response> {
    const refused = this.#refusal(request);
    if (refused !== undefined) return refused;
    let auth: AuthInfo | undefined;
    if (this.options.authenticate !== undefined) {
      // Without a hook nothing here names the global `Response` (see `LazyResponse`).
      const result = await this.options.authenticate(request.toRequest());
      if (result instanceof Response) return result;
      auth = result;
    }
    const caller = this.#callerOf(request, auth);
    const extra: MessageExtraInfo = {
      requestInfo: {
        method: request.method,
        url: request.url,
        headers: request.headerRecord(),
        clientAddress: caller.context.clientAddress,
      },
      authInfo: auth,
    };
    switch (request.method) {
      case 'POST':
        return this.#post(request, extra, caller);
      case 'GET':
        return this.#get(request, extra, caller);
      case 'DELETE':
        return this.#delete(request, caller);
      default:
        return methodNotAllowed(ALLOW);
    }
  }

  /**
   * The answer of a request refused before anyone reads it: another path (404), shutdown (503), drain
   * (503 with `Retry-After`), a CORS preflight, a failed DNS-rebinding check (403).
   */
  #refusal(request: HttpIncoming): Response | undefined {
    const path = this.#path;
    if (path !== undefined && request.url.pathname !== path) {
      return errorResponse(404, ErrorCode.InvalidRequest, `Not Found: the MCP endpoint is ${path}`);
    }
    if (this.#closed)
      return errorResponse(503, ErrorCode.InternalError, 'Service Unavailable: shutting down');
    const retryAfter = this.#drainRetryAfter;
    if (
      retryAfter !== undefined &&
      (this.sharedSessions !== undefined || request.headers.get(HEADER.sessionId) === null)
    ) {
      // A load balancer retries these on another instance (Retry-After: RFC 9110 §10.2.3).
      return errorResponse(503, ErrorCode.InternalError, 'Service Unavailable: this instance is draining', {
        headers: { 'retry-after': retryAfter },
      });
    }
    if (request.method === 'OPTIONS') return this.#cors?.preflight(request) ?? methodNotAllowed(ALLOW);
    // The guard checks Origin on every bind and Host on loopback (or against allowedHosts when given);
    // it reads only `headers.get` and `url`, which every HttpIncoming has.
    const refused = this.#guard?.(request, request.localAddress);
    // "If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden."
    if (refused !== undefined) return errorResponse(403, ErrorCode.InvalidRequest, `Forbidden: ${refused}`);
    return undefined;
  }

  /** Who sent the request: its principal, what `onsession` learns of it, its rate-limit key. */
  #callerOf(request: HttpIncoming, auth: AuthInfo | undefined): Caller {
    const peerAddress = request.remoteAddress;
    const proxies = this.#proxies;
    const clientAddress =
      proxies === undefined ? peerAddress : proxies.clientAddress(peerAddress, request.headers);
    const principal = auth === undefined ? undefined : this.#principalOf(auth);
    const callerKey = this.#callerKey;
    return {
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
  }

  async #post(request: HttpIncoming, extra: MessageExtraInfo, caller: Caller): Promise<Response> {
    // "The client MUST include an Accept header, listing both application/json and text/event-stream".
    if (!this.#acceptsPost(request.headers.get(HEADER.accept))) {
      return errorResponse(
        406,
        ErrorCode.InvalidRequest,
        'Not Acceptable: the client must accept both application/json and text/event-stream',
      );
    }
    if (!isJsonContentType(request.headers.get(HEADER.contentType))) {
      return errorResponse(415, ErrorCode.InvalidRequest, 'Unsupported Media Type: send application/json');
    }
    const body = await readMessages(request, this.#maxMessageBytes, this.parse);
    if (body instanceof LazyResponse) return body;
    return classifyPost(request.headers, body) === 'modern'
      ? handleModernPost(this, request, body as JSONRPCMessage, extra, caller.context)
      : handleLegacyPost(this, request, body, extra, caller);
  }

  /** A legacy session's GET stream; the modern era has none. */
  #get(request: HttpIncoming, extra: MessageExtraInfo, caller: Caller): Response | Promise<Response> {
    // 2026-07-28 "Earlier Streamable HTTP Revisions": "HTTP GET or DELETE ...: respond with 405".
    if (classifyBodiless(request.headers) === 'modern') return methodNotAllowed('POST');
    return handleLegacyGet(this, request, extra, caller);
  }

  /** The end of a legacy session; the modern era has no sessions to end. */
  #delete(request: HttpIncoming, caller: Caller): Response | Promise<Response> {
    if (classifyBodiless(request.headers) === 'modern') return methodNotAllowed('POST');
    return handleLegacyDelete(this, request, caller);
  }
}
