import { Metadata, type Server, status as Status } from '@grpc/grpc-js';
import type { AuthInfo } from '@x/protocol/core';
import {
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  principalOf,
  RateLimiter,
  type RateLimiterOptions,
  randomUuid,
} from '@x/protocol/transport';
import type { SessionContext } from '@x/protocol/http';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
} from './constants.js';
import { type GrpcAuthenticate, metadataRequest, refusalOf } from './session-auth.js';
import { GrpcServerTransport, type SessionCall } from './server-transport.js';
import { tunnelService } from './proto-files.js';
import type { TunnelLimits } from './tunnel-stream.js';

/** The stream that opened a session, as `onsession` and `callerKey` see it. */
export interface GrpcSessionRequest {
  /** The call metadata (`authorization`, `mcp-protocol-version`, `mcp-client-info`, …). */
  readonly metadata: Metadata;
  /** The peer as gRPC names it (`127.0.0.1:53412`). */
  readonly peer: string;
  /** The `:authority` the client connected to. */
  readonly authority: string;
}

/**
 * What `onsession` learns about the stream that opened the session.
 *
 * @example
 * ```ts
 * onsession: (transport, { authInfo, clientAddress }) => {
 *   console.log('gRPC session of', authInfo?.clientId ?? 'anonymous', 'from', clientAddress);
 *   return mcpServer.connect(transport);
 * }
 * ```
 */
export type GrpcSessionContext = SessionContext<GrpcSessionRequest>;

/** What a custom `callerKey` is given: one `sessionRateLimit` bucket per returned string. */
export interface GrpcCallerInfo {
  readonly principal: string | undefined;
  readonly clientAddress: string | undefined;
  readonly metadata: Metadata;
}

/**
 * Options of `addMcpGrpcService(server, options)` (and of `listenGrpc`).
 *
 * @example
 * ```ts
 * const mcp = addMcpGrpcService(server, {
 *   onsession: (transport) => mcpServer.connect(transport),
 *   authenticate: bearerAuth({ verifier }),
 *   maxSessions: 500,
 * });
 * ```
 */
export interface GrpcServiceOptions {
  /**
   * Called once per accepted `Session` stream (one stream is one session) with its own transport, not
   * yet started: connect your MCP server to it. A throw or rejection ends that stream (`INTERNAL`) and
   * reaches `onerror`.
   */
  onsession: (transport: GrpcServerTransport, context: GrpcSessionContext) => unknown;
  /** Authenticates each stream from its metadata (see {@link GrpcAuthenticate}); `bearerAuth` fits. */
  authenticate?: GrpcAuthenticate | undefined;
  /**
   * Largest message (one frame's `line`) in bytes. A bigger incoming one is dropped and reported (a
   * request is answered with an error naming `maxMessageBytes`); sending one fails with
   * `MessageTooLargeError`. `listenGrpc` sets gRPC's own receive limit just above it. Default
   * `DEFAULT_MAX_MESSAGE_BYTES` (4 MiB).
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * JSON nested deeper than this is answered with -32700 before it is parsed. Default 128.
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * Open sessions at most; past it a stream is refused with `RESOURCE_EXHAUSTED` naming `maxSessions`.
   * Default `DEFAULT_MAX_CONNECTED_SESSIONS` (1000), as for the WebSocket and SSE servers.
   *
   * @default {@link DEFAULT_MAX_CONNECTED_SESSIONS}
   */
  maxSessions?: number | undefined;
  /**
   * How fast one caller may open sessions: a token bucket per `callerKey`; past it a stream is refused
   * with `RESOURCE_EXHAUSTED` naming `sessionRateLimit` and a `retry-after` trailer (seconds). `false`
   * disables. Default 10/s, bursts of 50 (`DEFAULT_RATE_LIMIT`).
   *
   * @default {@link DEFAULT_RATE_LIMIT}
   */
  sessionRateLimit?: RateLimiterOptions | false | undefined;
  /** The rate-limit bucket of a caller. Default: its principal (`principalOf`), else its address. */
  callerKey?: ((caller: GrpcCallerInfo) => string) | undefined;
  /**
   * Bytes handed to gRPC and not yet taken by the peer, per stream. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes of messages waiting behind them, per stream; past it the stream ends. Default 32 MiB.
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long messages may wait without one leaving; then the stream ends. 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /** Faults outside any one transport (a failing `onsession`, a failing `authenticate`). */
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * Options of a drain.
 *
 * @example
 * ```ts
 * await service.drain({ timeoutMs: 5_000 });
 * ```
 */
export interface DrainOptions {
  /**
   * How long requests in flight may take before their sessions end anyway. Default 30 s.
   *
   * @default {@link DEFAULT_DRAIN_TIMEOUT_MS}
   */
  timeoutMs?: number | undefined;
}

/**
 * The MCP tunnel (`mcp.transport.v1.Mcp/Session`) on a `grpc.Server`: each stream becomes a
 * `GrpcServerTransport` handed to `onsession`. Made by `addMcpGrpcService` or `listenGrpc`.
 *
 * @example
 * ```ts
 * const mcp = addMcpGrpcService(server, { onsession: (t) => mcpServer.connect(t) });
 * process.on('SIGTERM', () => mcp.drain().then(() => server.tryShutdown(() => {})));
 * ```
 */
export class GrpcMcpService {
  readonly #options: GrpcServiceOptions;
  readonly #sessions = new Set<GrpcServerTransport>();
  readonly #limits: TunnelLimits;
  readonly #maxSessions: number;
  readonly #rateLimiter: RateLimiter | undefined;
  #accepting = 0;
  #draining = false;
  /** Told when a drain begins (the health service goes `NOT_SERVING`). */
  ondrain?: (() => void) | undefined;

  /** @internal Use `addMcpGrpcService(server, options)`. */
  constructor(options: GrpcServiceOptions) {
    this.#options = options;
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_CONNECTED_SESSIONS;
    this.#rateLimiter =
      options.sessionRateLimit === false ? undefined : new RateLimiter(options.sessionRateLimit);
    this.#limits = {
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
      sendStallTimeoutMs: options.sendStallTimeoutMs ?? DEFAULT_SEND_STALL_TIMEOUT_MS,
      maxNestingDepth: options.maxNestingDepth,
    };
  }

  /** Sessions open now. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** The `Session` handler `server.addService` takes. */
  handlers(): { Session: (call: SessionCall) => void } {
    return { Session: (call) => void this.#accept(call) };
  }

  /**
   * Graceful drain: refuses new streams (`UNAVAILABLE`), waits up to `timeoutMs` for the requests in
   * flight on open sessions to be answered, then ends every session with `UNAVAILABLE` (going away).
   */
  async drain(options: DrainOptions = {}): Promise<void> {
    this.#draining = true;
    this.ondrain?.();
    const timeoutMs = options.timeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.all([...this.#sessions].map((session) => session.whenIdle())), deadline]);
    clearTimeout(timer);
    this.#goAway();
  }

  /**
   * Ends every session now and refuses new ones. Sessions end with `UNAVAILABLE` ("going away", like
   * WebSocket's 1001), so a client with `reconnect` opens a new stream (to this or another server).
   */
  async close(): Promise<void> {
    this.#draining = true;
    this.ondrain?.();
    this.#goAway();
  }

  #goAway(): void {
    for (const session of [...this.#sessions])
      session.abort(Status.UNAVAILABLE, 'the server is shutting down');
  }

  async #accept(call: SessionCall): Promise<void> {
    const refuse = (code: number, details: string, metadata = new Metadata()): void => {
      call.emit('error', { code, details, metadata });
    };
    if (this.#draining) return refuse(Status.UNAVAILABLE, 'the server is shutting down');
    if (this.#sessions.size + this.#accepting >= this.#maxSessions) {
      return refuse(Status.RESOURCE_EXHAUSTED, `${this.#maxSessions} sessions are open (maxSessions)`);
    }
    this.#accepting++;
    try {
      await this.#open(call, refuse);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#options.onerror?.(failure);
      refuse(Status.INTERNAL, failure.message);
    } finally {
      this.#accepting--;
    }
  }

  async #open(
    call: SessionCall,
    refuse: (code: number, details: string, metadata?: Metadata) => void,
  ): Promise<void> {
    const peer = call.getPeer();
    const clientAddress = addressOf(peer);
    const authority = call.getHost();
    let authInfo: AuthInfo | undefined;
    const authenticate = this.#options.authenticate;
    if (authenticate !== undefined) {
      const verdict = await authenticate(metadataRequest(call.metadata, authority), call.metadata);
      if (verdict instanceof Response) {
        const refusal = await refusalOf(verdict);
        return refuse(refusal.code, refusal.details, refusal.metadata);
      }
      authInfo = verdict;
    }
    if (this.#rateLimiter !== undefined) {
      const principal = authInfo === undefined ? undefined : principalOf(authInfo);
      const key =
        this.#options.callerKey?.({ principal, clientAddress, metadata: call.metadata }) ??
        principal ??
        clientAddress ??
        peer;
      const waitMs = this.#rateLimiter.take(key);
      if (waitMs > 0) {
        const trailers = new Metadata();
        trailers.set('retry-after', String(Math.ceil(waitMs / 1000)));
        return refuse(Status.RESOURCE_EXHAUSTED, 'too many sessions opened (sessionRateLimit)', trailers);
      }
    }
    if (call.cancelled) return;
    const sessionId = randomUuid();
    const transport = new GrpcServerTransport({ call, sessionId, authInfo, limits: this.#limits });
    this.#sessions.add(transport);
    const onclose = (): void => {
      this.#sessions.delete(transport);
    };
    call.on('close', onclose);
    call.on('finish', onclose);
    call.on('cancelled', onclose);
    // The initial metadata tells the client the stream was accepted (its start() resolves) and names
    // the session.
    const initial = new Metadata();
    initial.set('mcp-session-id', sessionId);
    call.sendMetadata(initial);
    const request: GrpcSessionRequest = { metadata: call.metadata, peer, authority };
    try {
      await this.#options.onsession(transport, { request, authInfo, clientAddress });
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#options.onerror?.(failure);
      transport.abort(Status.INTERNAL, `onsession failed: ${failure.message}`);
    }
  }
}

/**
 * Adds the MCP tunnel service (`mcp.transport.v1.Mcp`) to an existing `grpc.Server`. Many sessions
 * share its port; add your own services beside it. Bind and start the server yourself.
 *
 * @example
 * ```ts
 * const server = new grpc.Server();
 * const mcp = addMcpGrpcService(server, { onsession: (transport) => mcpServer.connect(transport) });
 * server.bindAsync('0.0.0.0:50051', grpc.ServerCredentials.createInsecure(), () => {});
 * ```
 */
export function addMcpGrpcService(server: Server, options: GrpcServiceOptions): GrpcMcpService {
  const service = new GrpcMcpService(options);
  server.addService(tunnelService(), service.handlers());
  return service;
}

/** `127.0.0.1` of `127.0.0.1:53412`, `::1` of `[::1]:53412` or `::1:53412`. */
function addressOf(peer: string): string | undefined {
  const bracketed = /^\[([^\]]+)\]:\d+$/.exec(peer);
  if (bracketed !== null) return bracketed[1];
  const cut = peer.lastIndexOf(':');
  if (cut <= 0) return peer === '' ? undefined : peer;
  return peer.slice(0, cut).replace(/^ipv[46]:/, '');
}
