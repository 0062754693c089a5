import type { z } from 'zod';
import { CancelHandle } from '../cancel-handle.js';
import {
  ConnectionClosedError,
  ErrorCode,
  McpError,
  markTransportLoss,
  TransportLostError,
} from '../errors.js';
import {
  JSONRPC_VERSION,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type ProgressToken,
  type RequestId,
} from '../jsonrpc.js';
import { DeferredResultSchema } from '../schemas/deferred.js';
import type { MessagePriority } from '../message-priority.js';
import { isThenable } from '../thenable.js';
import { type MessageExtraInfo, SENT, type Transport, type TransportSendOptions } from '../transport.js';
import {
  CANCELLED_NOTIFICATION,
  PROGRESS_NOTIFICATION,
  readCancelledParams,
  readProgressParams,
} from './builtin-params.js';
import {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_UNCANCELLABLE_METHODS,
  PROGRESS_UNASKED_METHODS,
} from './defaults.js';
import {
  type NotificationHandlerEntry,
  type RequestHandlerEntry,
  type RequestTarget,
  invokeTarget,
  runNotificationHandler,
  runRequestHandler,
  toEntry,
} from './handlers.js';
import { ActiveRequests } from './active-requests.js';
import { InboundQueue, resolveRequestLimits } from './inbound-queue.js';
import { OUTBOUND, type PriorityFunction, withPriorityMeta } from './priority-option.js';
import {
  Heartbeat,
  type HeartbeatTimeoutError,
  type ResolvedHeartbeat,
  resolveHeartbeat,
} from './heartbeat.js';
import {
  type Interceptor,
  InterceptorChain,
  methodNotFound,
  type OutgoingNotificationCall,
  type OutgoingRequestCall,
} from './interceptors.js';
import {
  type PendingRequest,
  PendingRequests,
  type RequestDefaults,
  type SettleOutcome,
} from './pending-requests.js';
import { HandlerContext, type RequestContextHost } from './request-context.js';
import { describeId, duplicateIdResponse, unsendableResponse } from './unsendable-response.js';
import { withProgressToken } from './with-progress-token.js';
import type {
  FallbackNotificationHandler,
  FallbackRequestHandler,
  HandlerResult,
  NotificationHandler,
  RequestHandler,
} from './handler-types.js';
import type {
  NotificationOptions,
  OutgoingNotification,
  OutgoingRequest,
  ProtocolOptions,
  RequestOptions,
  ZodSchema,
} from './types.js';

/** Shared by every engine built without `uncancellableMethods` (one Set, not one per session). */
const DEFAULT_UNCANCELLABLE: ReadonlySet<string> = new Set(DEFAULT_UNCANCELLABLE_METHODS);
const PROGRESS_UNASKED: ReadonlySet<string> = new Set(PROGRESS_UNASKED_METHODS);

/**
 * The request timeouts of an engine whose options set none. Not frozen: a frozen object has its own
 * hidden class, and the reads in `PendingRequest` should see one shape. The type keeps it read-only.
 */
const STANDARD_DEFAULTS: RequestDefaults = {
  timeout: DEFAULT_REQUEST_TIMEOUT_MS,
  resetTimeoutOnProgress: true,
  maxTotalTimeout: DEFAULT_MAX_TOTAL_TIMEOUT_MS,
};

/**
 * The era-neutral JSON-RPC session: correlates ids, dispatches to handlers, enforces timeouts, routes
 * progress and cancellation, and ends everything cleanly on close (DESIGN §3). `Client` and `Server`
 * build on it; override the protected `assert*` hooks to enforce negotiated capabilities.
 *
 * @example
 * ```ts
 * const Echo = z.object({ text: z.string() });
 * const server = new Protocol();
 * server.setRequestHandler('echo', Echo, (params) => ({ text: params.text }));
 * const client = new Protocol({ timeout: 5_000 });
 * const [a, b] = InMemoryTransport.createLinkedPair();
 * await server.connect(b);
 * await client.connect(a);
 * const { text } = await client.request({ method: 'echo', params: { text: 'hi' } }, Echo);
 * ```
 */
export class Protocol implements RequestContextHost {
  /** Non-fatal faults: transport errors, late or unknown responses, throwing notification handlers. */
  onerror?: ((error: Error) => void) | undefined;
  /** Fires once per connection, after pending requests were rejected and handlers aborted. */
  onclose?: (() => void) | undefined;
  /**
   * Answers requests for methods without a handler; without it they get -32601. Called with the engine
   * as `this`, so a subclass can install one function shared by all its instances.
   */
  fallbackRequestHandler?: FallbackRequestHandler | undefined;
  /** Receives notifications for methods without a handler (the engine as `this`); else they are dropped. */
  fallbackNotificationHandler?: FallbackNotificationHandler | undefined;

  /** Timeouts of requests whose options leave them unset. */
  readonly #defaults: RequestDefaults;
  readonly #uncancellable: ReadonlySet<string>;
  // Created on first registration: a server's sessions route everything through the fallbacks, and
  // an empty Map still costs its hash table (~180 bytes) on each of thousands of sessions.
  #requestHandlers: Map<string, RequestHandlerEntry> | undefined;
  #notificationHandlers: Map<string, NotificationHandlerEntry> | undefined;
  readonly #active = new ActiveRequests();
  /**
   * Created by the first outgoing request: most server sessions never send one, and the table, its
   * in-flight map and its callbacks are a tenth of an idle session's heap.
   */
  #pendingTable: PendingRequests | undefined;
  /** `#report` as a standalone function, for promise callbacks; made on first need. */
  #reporter: ((error: unknown) => void) | undefined;
  #transport: Transport | undefined;
  /** Installed by `use()` (or shared through `ProtocolOptions.interceptors`); undefined costs nothing. */
  #chain: InterceptorChain | undefined;
  /** Set by the innermost interceptor layer so that `request()`/`notification()` skip the chain once. */
  #direct = false;
  readonly #heartbeatOption: ResolvedHeartbeat | undefined;
  #heartbeat: Heartbeat | undefined;
  /** Why this side closed the connection (the heartbeat declared it dead), for the pending requests. */
  #closeReason: Error | undefined;
  /** `ProtocolOptions.priority`; undefined (the default) costs one check per message. */
  readonly #priority: PriorityFunction | undefined;
  /** Only with a finite `maxConcurrentRequests`: without one, requests start as they arrive. */
  readonly #queue: InboundQueue | undefined;
  /** `#release` is starting queued requests: a nested call only frees its slot. */
  #draining = false;

  constructor(options: ProtocolOptions = {}) {
    // Shared when nothing is overridden: a server builds one engine per session.
    this.#defaults =
      options.timeout === undefined &&
      options.resetTimeoutOnProgress === undefined &&
      options.maxTotalTimeout === undefined
        ? STANDARD_DEFAULTS
        : {
            timeout: options.timeout ?? STANDARD_DEFAULTS.timeout,
            resetTimeoutOnProgress:
              options.resetTimeoutOnProgress ?? STANDARD_DEFAULTS.resetTimeoutOnProgress,
            maxTotalTimeout: options.maxTotalTimeout ?? STANDARD_DEFAULTS.maxTotalTimeout,
          };
    this.#uncancellable =
      options.uncancellableMethods === undefined
        ? DEFAULT_UNCANCELLABLE
        : new Set(options.uncancellableMethods);
    // Built in without the capability hook: subclass state does not exist yet during this constructor.
    if (options.ping !== false) {
      this.#requestHandlers = new Map([['ping', { schema: undefined, resolved: true, handler: pong }]]);
    }
    this.#heartbeatOption = resolveHeartbeat(options.heartbeat);
    this.#priority = options.priority;
    this.#queue = inboundQueue(options);
  }

  /**
   * Installs interceptors around this engine's traffic (see `Interceptor`); the first installed is the
   * outermost. Returns what removes them again.
   *
   * @example
   * ```ts
   * const remove = protocol.use({
   *   incomingRequest: (request, ctx, next) => {
   *     if (ctx.authInfo === undefined) throw new McpError(ErrorCode.InvalidRequest, 'Sign in first');
   *     return next(request);
   *   },
   * });
   * ```
   */
  use(...interceptors: Interceptor[]): () => void {
    this.#chain ??= new InterceptorChain();
    return this.#chain.use(...interceptors);
  }

  /**
   * Makes this engine run `chain`, shared with other engines (a server's sessions share the server's,
   * so its `use()` reaches connections already open).
   */
  protected shareInterceptors(chain: InterceptorChain): void {
    this.#chain = chain;
  }

  /** The connected transport, if any. */
  get transport(): Transport | undefined {
    return this.#transport;
  }

  /** Outgoing requests still waiting for a response. */
  get pendingRequestCount(): number {
    return this.#pendingTable?.size ?? 0;
  }

  /** Incoming requests whose handler is still running (and not cancelled). */
  get activeRequestCount(): number {
    return this.#active.size - (this.#queue?.size ?? 0);
  }

  /** Incoming requests waiting for a handler slot (`maxConcurrentRequests`); 0 without a limit. */
  get queuedRequestCount(): number {
    return this.#queue?.size ?? 0;
  }

  /** Attaches to a transport and starts it. One transport at a time; after `close()` it may reconnect. */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport !== undefined) throw new Error('Protocol is already connected; close() it first');
    this.#transport = transport;
    const previousClose = transport.onclose;
    const previousError = transport.onerror;
    transport.onclose = () => {
      previousClose?.();
      this.#handleClose(transport);
    };
    transport.onerror = (error) => {
      previousError?.(error);
      this.#report(error);
    };
    transport.onmessage = this.#onMessage;
    try {
      await transport.start();
    } catch (error) {
      this.#handleClose(transport);
      throw error;
    }
    const heartbeat = this.heartbeatFor(transport);
    if (heartbeat !== undefined && this.#transport === transport) this.startHeartbeat(heartbeat);
  }

  /**
   * The heartbeat a connection over `transport` gets when it starts: by default the `heartbeat`
   * option. A subclass decides otherwise (a client turns it on for network transports; a server starts
   * it itself once a session needs one, see `startHeartbeat`).
   */
  protected heartbeatFor(_transport: Transport): ResolvedHeartbeat | undefined {
    return this.#heartbeatOption;
  }

  /** The `heartbeat` option, resolved (undefined when off or unset). */
  protected get heartbeatOption(): ResolvedHeartbeat | undefined {
    return this.#heartbeatOption;
  }

  /** Starts (or restarts) the heartbeat of the current connection; it stops when the connection closes. */
  protected startHeartbeat(settings: ResolvedHeartbeat): void {
    const transport = this.#transport;
    if (transport === undefined) return;
    this.#heartbeat?.stop();
    this.#heartbeat = new Heartbeat(settings, {
      probe: (timeoutMs) => this.sendHeartbeat(timeoutMs),
      dead: (error) => this.#declareDead(transport, error, settings),
    });
  }

  /**
   * One liveness probe: `ping` by default (spec 2025-11-25 basic/utilities/ping: "Implementations
   * SHOULD periodically issue pings to detect connection health"). Return undefined to skip a tick
   * (nothing to probe now); any answer, even an error response, counts as alive.
   */
  protected sendHeartbeat(timeoutMs: number): Promise<unknown> | undefined {
    return this.request({ method: 'ping' }, DeferredResultSchema, {
      timeout: timeoutMs,
      maxTotalTimeout: timeoutMs,
    });
  }

  /** "After several failed pings, the implementation MAY reset the connection" (basic/utilities/ping). */
  #declareDead(transport: Transport, error: HeartbeatTimeoutError, settings: ResolvedHeartbeat): void {
    if (this.#transport !== transport) return;
    this.#report(error);
    if (transport.resetConnection !== undefined) {
      // A transport that can replace its connection (failover, reconnect) keeps the session: only the
      // dead link goes, and the heartbeat watches the next one.
      try {
        transport.resetConnection(error);
      } catch (failure) {
        this.#report(failure);
      }
      if (this.#transport === transport) this.startHeartbeat(settings);
      return;
    }
    this.#closeReason = error;
    transport.close().then(
      () => this.#handleClose(transport),
      (failure: unknown) => {
        this.#report(failure);
        this.#handleClose(transport);
      },
    );
  }

  /**
   * Runs once the connection is gone (after pending requests were rejected, before `onclose`): a
   * subclass ends what waits on the connection outside the pending table (a client's retry backoff).
   */
  protected connectionClosed(): void {}

  /** Closes the transport; pending requests reject with `ConnectionClosedError`, handlers are aborted. */
  async close(): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) return;
    try {
      await transport.close();
    } finally {
      this.#handleClose(transport);
    }
  }

  /**
   * Sends a request and resolves with its result validated by `resultSchema`.
   *
   * Rejects with: `McpError.fromError(error)` for an error response; `McpError(InternalError)` when the
   * result fails `resultSchema`; `RequestTimeoutError` on timeout; `signal.reason` when `signal` aborts;
   * `ConnectionClosedError` when not connected or the connection closes; whatever a capability hook threw.
   *
   * @example
   * ```ts
   * const result = await protocol.request(
   *   { method: 'tools/call', params: { name: 'build', arguments: {} } },
   *   CallToolResultSchema,
   *   { timeout: 30_000, signal: controller.signal, onprogress: ({ progress, total }) => draw(progress, total) },
   * );
   * ```
   */
  request<S extends ZodSchema>(
    request: OutgoingRequest,
    resultSchema: S,
    options?: RequestOptions,
  ): Promise<z.output<S>> {
    if (this.#chain?.outgoingRequest !== undefined && !this.#direct) {
      return this.#interceptRequest(request, resultSchema, options) as Promise<z.output<S>>;
    }
    // Cleared even when the layers were removed meanwhile, so it never skips a later request's chain.
    this.#direct = false;
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new ConnectionClosedError('Not connected'));
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    try {
      this.assertCapabilityForMethod(request.method);
    } catch (error) {
      return Promise.reject(error);
    }
    const pending = this.#pending;
    const id = pending.nextId();
    options?.onrequestid?.(id);
    // A stream handle only where the transport has a stream per request to close.
    const stream = transport.hasPerRequestStream === true ? new CancelHandle() : undefined;
    // The token is the id: unique among active requests, as the spec requires (basic/utilities/progress).
    const asksProgress = this.#asksProgress(request, options);
    let params = asksProgress ? withProgressToken(request.params, id) : request.params;
    const chosen = options?.priority;
    if (chosen !== undefined) params = withPriorityMeta(params, chosen);
    const message: JSONRPCRequest =
      params === undefined
        ? { jsonrpc: JSONRPC_VERSION, id, method: request.method }
        : { jsonrpc: JSONRPC_VERSION, id, method: request.method, params };
    // Without a choice the transport classes the message itself (`defaultMessagePriority`).
    const priority = chosen ?? this.#priority?.(message, OUTBOUND);
    const result = pending.track(id, request.method, resultSchema, options, stream, asksProgress);
    try {
      const sent = transport.send(message, transportOptions(options, stream, priority));
      if (sent !== SENT && isThenable(sent)) failOnRejection(sent, pending, id);
    } catch (error) {
      pending.fail(id, error);
    }
    return result as Promise<z.output<S>>;
  }

  /**
   * Whether a request carries `_meta.progressToken`: always with `onprogress`; otherwise when progress
   * would keep it alive (`resetTimeoutOnProgress` on, a finite timeout) and the method is not one
   * answered at once (`PROGRESS_UNASKED_METHODS`) and the caller set no token of its own. Without the token a server cannot report, and a
   * long tool that would report every second still fails at the timeout.
   */
  #asksProgress(request: OutgoingRequest, options: RequestOptions | undefined): boolean {
    if (options?.onprogress !== undefined) return true;
    const defaults = this.#defaults;
    if (!(options?.resetTimeoutOnProgress ?? defaults.resetTimeoutOnProgress)) return false;
    if ((options?.timeout ?? defaults.timeout) === Number.POSITIVE_INFINITY) return false;
    if (PROGRESS_UNASKED.has(request.method)) return false;
    // A token the caller set itself (a task's, kept across its polls) is the caller's to route.
    const meta = request.params?.['_meta'];
    return !(typeof meta === 'object' && meta !== null && 'progressToken' in meta);
  }

  /**
   * Sends a notification. Rejects with `ConnectionClosedError` when not connected, or with whatever
   * `assertNotificationCapability` threw.
   *
   * @example
   * ```ts
   * await protocol.notification({ method: 'notifications/tools/list_changed' });
   * ```
   */
  notification(notification: OutgoingNotification, options?: NotificationOptions): Promise<void> {
    if (this.#chain?.outgoingNotification !== undefined && !this.#direct) {
      return this.#interceptNotification(notification, options);
    }
    this.#direct = false;
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new ConnectionClosedError('Not connected'));
    try {
      this.assertNotificationCapability(notification.method);
      const params = notification.params;
      const message: JSONRPCNotification =
        params === undefined
          ? { jsonrpc: JSONRPC_VERSION, method: notification.method }
          : { jsonrpc: JSONRPC_VERSION, method: notification.method, params };
      if (this.#priority === undefined || options?.priority !== undefined) {
        return transport.send(message, options);
      }
      // A progress notification without a choice stays bulk (`defaultMessagePriority`).
      return transport.send(message, withPriority(options, this.#priority(message, OUTBOUND)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Registers (or replaces) the handler for a request method. With a schema, `params` (or `{}` when the
   * request has none) is validated first and a failure is answered with -32602. A thrown `McpError`
   * is answered with its code, message and data; any other exception with -32603 and its message.
   *
   * @example
   * ```ts
   * protocol.setRequestHandler('tools/call', z.object({ name: z.string() }), async ({ name }, ctx) => {
   *   if (!tools.has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
   *   return tools.get(name)!.run(ctx.signal);
   * });
   * protocol.setRequestHandler('x/raw', (params) => ({ echo: params })); // no validation
   * ```
   */
  setRequestHandler<S extends ZodSchema, R extends HandlerResult>(
    method: string,
    schema: S,
    handler: RequestHandler<z.output<S>, R>,
  ): void;
  setRequestHandler<R extends HandlerResult>(
    method: string,
    handler: RequestHandler<Record<string, unknown>, R>,
  ): void;
  setRequestHandler(
    method: string,
    schemaOrHandler: ZodSchema | RequestHandler<never>,
    handler?: RequestHandler<never>,
  ): void {
    this.assertRequestHandlerCapability(method);
    this.#requestHandlers ??= new Map();
    this.#requestHandlers.set(method, toEntry(schemaOrHandler, handler) as RequestHandlerEntry);
  }

  /** Removes a request handler (the built-in `ping` too). Returns whether one was registered. */
  removeRequestHandler(method: string): boolean {
    return this.#requestHandlers?.delete(method) ?? false;
  }

  hasRequestHandler(method: string): boolean {
    return this.#requestHandlers?.has(method) ?? false;
  }

  /**
   * Registers (or replaces) the handler for a notification method. Params failing the schema are
   * reported to `onerror` and the handler is skipped. `notifications/cancelled` and
   * `notifications/progress` are consumed by the engine first; a handler for them is called afterwards.
   *
   * @example
   * ```ts
   * protocol.setNotificationHandler('notifications/message', LogParams, (params) => log(params.level, params.data));
   * ```
   */
  setNotificationHandler<S extends ZodSchema>(
    method: string,
    schema: S,
    handler: NotificationHandler<z.output<S>>,
  ): void;
  setNotificationHandler(method: string, handler: NotificationHandler): void;
  setNotificationHandler(
    method: string,
    schemaOrHandler: ZodSchema | NotificationHandler<never>,
    handler?: NotificationHandler<never>,
  ): void {
    this.#notificationHandlers ??= new Map();
    this.#notificationHandlers.set(method, toEntry(schemaOrHandler, handler) as NotificationHandlerEntry);
  }

  removeNotificationHandler(method: string): boolean {
    return this.#notificationHandlers?.delete(method) ?? false;
  }

  /**
   * Whether progress for a token no pending request owns is still expected (a subclass's own tokens,
   * e.g. a 2025-11-25 task's, whose progress outlives the request that started it); if not, the
   * engine reports it to `onerror` as unknown. Notification handlers run either way.
   */
  protected isExpectedProgressToken(_token: ProgressToken): boolean {
    return false;
  }

  /**
   * Who answers this engine's requests, as its errors name it (`Invalid result for tools/call from the
   * server: …`): a subclass that knows says so. Default: nobody named.
   */
  protected get peerName(): string | undefined {
    return undefined;
  }

  /** Throw (preferably an `McpError`) to refuse sending a request for `method`. */
  protected assertCapabilityForMethod(_method: string): void {}

  /** Throw (preferably an `McpError`) to refuse sending a notification for `method`. */
  protected assertNotificationCapability(_method: string): void {}

  /** Throw to refuse registering a request handler for `method`. */
  protected assertRequestHandlerCapability(_method: string): void {}

  /**
   * Rejects one pending outgoing request with `error`, sending nothing: for a subclass that learns by
   * other means that the peer dropped it (e.g. a modern server tearing down `subscriptions/listen` with
   * its own `notifications/cancelled`). Returns false when `id` was not pending.
   */
  protected rejectPendingRequest(id: RequestId, error: unknown): boolean {
    return this.#pendingTable?.fail(id, error) ?? false;
  }

  /**
   * Whether requests of `method` take part in cancellation: when false, no `notifications/cancelled` is
   * sent for them and a received one is ignored. Default: not in `uncancellableMethods`.
   */
  protected isCancellable(method: string): boolean {
    return !this.#uncancellable.has(method);
  }

  readonly #onMessage = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    // Never throw into the transport: every failure becomes an error response or an onerror call.
    try {
      if (!('method' in message)) {
        const outcome = this.#pendingTable?.settle(message);
        if (outcome !== 'settled') this.#onUnsettled(message, outcome);
      } else if ('id' in message) this.#onRequest(message, extra);
      else if (this.#chain?.incomingNotification === undefined) this.#onNotification(message, extra);
      else
        this.#settleQuietly(this.#chain.runIncomingNotification(message, extra, this.#deliverNotification));
    } catch (error) {
      this.#report(error);
    }
  };

  /** The engine underneath the `outgoingRequest` layers. */
  #interceptRequest(request: OutgoingRequest, resultSchema: ZodSchema, options: RequestOptions | undefined) {
    const chain = this.#chain as InterceptorChain;
    // A lost connection is a fact about the request, whatever error the layers turn it into: the
    // engine notes the loss underneath them and marks what they reject with (`transportLossOf`), so
    // a client's listen streams are re-opened after it even when an interceptor replaced the error.
    let lost: TransportLostError | undefined;
    return chain
      .runOutgoingRequest({ request, resultSchema, options }, (call: OutgoingRequestCall) => {
        this.#direct = true;
        lost = undefined;
        return this.request(call.request, call.resultSchema, call.options).catch((error: unknown) => {
          if (error instanceof TransportLostError) lost = error;
          throw error;
        });
      })
      .catch((error: unknown) => {
        if (lost !== undefined) markTransportLoss(error, lost);
        throw error;
      });
  }

  #interceptNotification(notification: OutgoingNotification, options: NotificationOptions | undefined) {
    const chain = this.#chain as InterceptorChain;
    return chain.runOutgoingNotification({ notification, options }, (call: OutgoingNotificationCall) => {
      this.#direct = true;
      return this.notification(call.notification, call.options);
    });
  }

  readonly #deliverNotification = (notification: JSONRPCNotification, extra: MessageExtraInfo | undefined) =>
    this.#onNotification(notification, extra);

  /** What a response that settled nothing means: 'stale' is ignored, 'unknown' reported. */
  #onUnsettled(response: JSONRPCResponse, outcome: SettleOutcome | undefined): void {
    // 'stale' (answered, timed out or cancelled already) is ignored: spec, basic/utilities/cancellation.
    if (outcome === 'stale') return;
    if ('error' in response && (response.id === undefined || response.id === null)) {
      this.#report(McpError.fromError(response.error));
    } else {
      this.#report(new Error(`Received a response for an unknown request id: ${describeId(response.id)}`));
    }
  }

  #onRequest(request: JSONRPCRequest, extra: MessageExtraInfo | undefined): void {
    // Checked first: whatever the duplicate asks, its answer must not pass for the original's.
    if (this.#active.has(request.id)) {
      this.#sendQuietly(duplicateIdResponse(request.id), request.id);
      return;
    }
    let target: RequestTarget | undefined =
      this.#requestHandlers?.get(request.method) ?? this.fallbackRequestHandler;
    if (this.#chain?.incomingRequest !== undefined) target = this.#intercepted(target);
    if (target === undefined) {
      const error = { code: ErrorCode.MethodNotFound, message: `Method not found: ${request.method}` };
      this.#sendQuietly({ jsonrpc: JSONRPC_VERSION, id: request.id, error }, request.id);
      return;
    }
    const ctx = new HandlerContext(this, request, extra, this.#transport?.sessionId, this.#priority);
    const queue = this.#queue;
    if (queue !== undefined) {
      this.#admit(queue, ctx, request, target);
      return;
    }
    // Without a limit (the default) the path stays as short as it was before the queue existed.
    this.#active.begin(ctx);
    const response = runRequestHandler(request, ctx, target, this);
    if (response instanceof Promise) this.#answerLater(ctx, response);
    else this.#answer(ctx, response);
  }

  /**
   * With `maxConcurrentRequests`: an urgent request or one that finds a free slot starts; otherwise it
   * waits (active already, so a duplicate id or a cancellation finds it), or is refused at once when
   * `maxQueuedRequests` wait already.
   */
  #admit(queue: InboundQueue, ctx: HandlerContext, request: JSONRPCRequest, target: RequestTarget): void {
    if (queue.tryStart(ctx.priority)) {
      this.#active.begin(ctx);
      this.#start(queue, ctx, request, target);
      return;
    }
    if (queue.full) {
      const limit = queue.maxQueued;
      const error = new McpError(
        ErrorCode.InvalidRequest,
        `Too many requests waiting: maxQueuedRequests (${limit}) reached while maxConcurrentRequests (${queue.maxConcurrent}) handlers run; retry later`,
        { maxQueuedRequests: limit },
      );
      this.#sendQuietly({ jsonrpc: JSONRPC_VERSION, id: request.id, error: error.toJSON() }, request.id);
      return;
    }
    this.#active.begin(ctx);
    queue.enqueue({ ctx, request, target }, ctx.priority);
  }

  /** Runs a handler of an engine with a queue: its answer frees its slot. */
  #start(queue: InboundQueue, ctx: HandlerContext, request: JSONRPCRequest, target: RequestTarget): void {
    const response = runRequestHandler(request, ctx, target, this);
    if (response instanceof Promise) this.#answerQueuedLater(queue, ctx, response);
    else this.#answerQueued(queue, ctx, response);
  }

  #answerQueuedLater(queue: InboundQueue, ctx: HandlerContext, response: Promise<JSONRPCResponse>): void {
    response.then((settled) => this.#answerQueued(queue, ctx, settled));
  }

  #answerQueued(queue: InboundQueue, ctx: HandlerContext, response: JSONRPCResponse): void {
    this.#answer(ctx, response);
    if (ctx.priority !== 'urgent') this.#release(queue);
  }

  /**
   * A handler that held a slot returned: the slot goes to the next waiting request, normal before bulk,
   * oldest first. A loop rather than recursion: handlers that answer at once free their slot inside it.
   */
  #release(queue: InboundQueue): void {
    queue.finished();
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let next = queue.next(); next !== undefined; next = queue.next()) {
        // Aborted while waiting by other means than a cancellation (which removes it): it never runs.
        if (next.ctx.aborted) {
          this.#active.end(next.ctx);
          queue.finished();
        } else this.#start(queue, next.ctx, next.request, next.target);
      }
    } finally {
      this.#draining = false;
    }
  }

  // The callbacks of the rare paths are made in methods of their own: a closure in the hot method itself
  // would make V8 allocate a context for the variables it captures on every call, taken or not.
  #answerLater(ctx: HandlerContext, response: Promise<JSONRPCResponse>): void {
    response.then((settled) => this.#answer(ctx, settled));
  }

  /** `target` inside the `incomingRequest` layers (an unknown method is answered -32601 innermost). */
  #intercepted(target: RequestTarget | undefined): RequestTarget {
    const chain = this.#chain as InterceptorChain;
    return function (this: Protocol, request: JSONRPCRequest, ctx) {
      return chain.runIncomingRequest(request, ctx, (inner) => {
        if (target === undefined) throw methodNotFound(inner.method);
        return invokeTarget(target, inner, ctx, this) as HandlerResult | Promise<HandlerResult>;
      });
    } as RequestTarget;
  }

  #answer(ctx: HandlerContext, response: JSONRPCResponse): void {
    // A cancelled request gets no response (spec: basic/utilities/cancellation); a closed one cannot.
    if (!this.#active.end(ctx)) return;
    const transport = this.#transport;
    if (transport === undefined) return;
    const id = ctx.requestId;
    // An answer is in its request's class, an error answer urgent (issue #42).
    const priority: MessagePriority = 'error' in response ? 'urgent' : ctx.priority;
    let sent: unknown;
    try {
      sent = transport.send(response, { relatedRequestId: id, priority });
    } catch (error) {
      this.#onUnsent(transport, response, ctx.method, error);
      return;
    }
    // Transports answer SENT when the message is on its way: only a real promise (backpressure, or a
    // failure such as JSON refusing a BigInt) gets a callback, so the everyday path makes no closure.
    if (sent !== SENT && isThenable(sent)) this.#watchUnsent(sent, transport, response, ctx.method);
  }

  #watchUnsent(
    sent: PromiseLike<unknown>,
    transport: Transport,
    response: JSONRPCResponse,
    method: string,
  ): void {
    sent.then(undefined, (error: unknown) => this.#onUnsent(transport, response, method, error));
  }

  /**
   * A response could not be sent. When JSON cannot encode it, the requester still gets an answer
   * (-32603 naming the method) instead of waiting out its timeout; either way the failure is reported.
   * The replacement goes through `#sendQuietly`, which only reports: no second retry, no loop.
   */
  #onUnsent(transport: Transport, response: JSONRPCResponse, method: string, failure: unknown): void {
    this.#report(failure);
    if (this.#transport !== transport) return;
    const replacement = unsendableResponse(response, method, failure);
    if (replacement !== undefined) this.#sendQuietly(replacement, response.id ?? undefined);
  }

  #onNotification(notification: JSONRPCNotification, extra: MessageExtraInfo | undefined): void {
    const method = notification.method;
    let builtin = true;
    if (method === PROGRESS_NOTIFICATION) this.#onProgress(notification.params);
    else if (method === CANCELLED_NOTIFICATION) this.#onCancelled(notification.params);
    else builtin = false;
    const entry = this.#notificationHandlers?.get(method);
    const fallback = entry === undefined && !builtin ? this.fallbackNotificationHandler : undefined;
    try {
      if (entry !== undefined) {
        this.#settleQuietly(runNotificationHandler(entry, notification, extra));
      } else if (fallback !== undefined) {
        this.#settleQuietly(fallback.call(this, notification, extra));
      }
    } catch (error) {
      this.#report(error);
    }
  }

  #onProgress(params: Record<string, unknown> | undefined): void {
    const progress = readProgressParams(params);
    if (progress === undefined) return;
    try {
      if (
        (this.#pendingTable?.progress(progress) ?? 'unknown') === 'unknown' &&
        !this.isExpectedProgressToken(progress.progressToken)
      ) {
        this.#report(
          new Error(`Received progress for an unknown token: ${describeId(progress.progressToken)}`),
        );
      }
    } catch (error) {
      this.#report(error); // the caller's onprogress threw
    }
  }

  #onCancelled(params: Record<string, unknown> | undefined): void {
    const cancelled = readCancelledParams(params);
    if (cancelled === undefined) return;
    const ctx = this.#active.cancel(cancelled.requestId, cancelled.reason, (method) =>
      this.isCancellable(method),
    );
    // A waiting request leaves the queue unanswered: its handler never runs.
    if (ctx !== undefined) this.#queue?.remove(ctx);
  }

  /** Sends a message nobody awaits (responses, cancellations); failures go to onerror. */
  #sendQuietly(message: JSONRPCMessage, relatedRequestId: RequestId | undefined): void {
    const transport = this.#transport;
    if (transport === undefined) return;
    try {
      const options = relatedRequestId === undefined ? undefined : { relatedRequestId };
      this.#settleQuietly(transport.send(message, options));
    } catch (error) {
      this.#report(error);
    }
  }

  /** A request was abandoned locally: tell the peer (spec: basic/lifecycle, "Timeouts"). */
  #onGiveUp(request: PendingRequest, reason: string | undefined): void {
    // Runs from a timer or an abort event: nothing may escape to the host's uncaught-error handler.
    try {
      request.stream?.abort(reason);
      if (!this.isCancellable(request.method)) return;
      const params = reason === undefined ? { requestId: request.id } : { requestId: request.id, reason };
      this.#sendQuietly(
        { jsonrpc: JSONRPC_VERSION, method: CANCELLED_NOTIFICATION, params },
        request.relatedRequestId,
      );
    } catch (error) {
      this.#report(error);
    }
  }

  #handleClose(transport: Transport): void {
    if (this.#transport !== transport) return;
    this.#transport = undefined;
    if (transport.onmessage === this.#onMessage) transport.onmessage = undefined;
    this.#heartbeat?.stop();
    this.#heartbeat = undefined;
    const reason = this.#closeReason;
    this.#closeReason = undefined;
    // Building an Error captures a stack: only pay for it when someone will receive it.
    const pending = this.#pendingTable;
    const error =
      (pending?.size ?? 0) + this.#active.size > 0 ? closedError(reason ?? transport.closeReason) : undefined;
    pending?.rejectAll(error);
    // Waiting requests never run; running ones free their slots as their handlers return.
    this.#queue?.clear();
    this.#active.abortAll(error);
    this.connectionClosed();
    try {
      this.onclose?.();
    } catch (failure) {
      this.#report(failure);
    }
  }

  get #pending(): PendingRequests {
    this.#pendingTable ??= new PendingRequests(
      (request, reason) => this.#onGiveUp(request, reason),
      this.#defaults,
      this.peerName,
    );
    return this.#pendingTable;
  }

  #report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // An onerror that throws has nowhere left to report to.
    }
  }

  /** Reports a promise's rejection to onerror; `SENT` and non-promises cost nothing. */
  #settleQuietly(result: unknown): void {
    if (result === SENT || !isThenable(result)) return;
    this.#reporter ??= (error) => this.#report(error);
    result.then(undefined, this.#reporter);
  }
}

function pong(): HandlerResult {
  return {};
}

/**
 * The transport's share of the request options: only the fields `TransportSendOptions` defines, so
 * engine-only options (timeouts, callbacks) never reach a transport, and no object is built when there
 * is nothing to pass.
 */
function transportOptions(
  options: RequestOptions | undefined,
  stream: CancelHandle | undefined,
  priority: MessagePriority | undefined,
): TransportSendOptions | undefined {
  if (options === undefined && stream === undefined && priority === undefined) return undefined;
  const signal = options?.signal;
  if (stream === undefined) {
    return {
      relatedRequestId: options?.relatedRequestId,
      resumptionToken: options?.resumptionToken,
      onresumptiontoken: options?.onresumptiontoken,
      headers: options?.headers,
      signal,
      requestSignal: signal,
      priority,
    };
  }
  return {
    relatedRequestId: options?.relatedRequestId,
    resumptionToken: options?.resumptionToken,
    onresumptiontoken: options?.onresumptiontoken,
    headers: options?.headers,
    signal,
    priority,
    // Made on first read: a transport that takes onRequestCancel never pays for an AbortController.
    get requestSignal() {
      return stream.signal;
    },
    onRequestCancel: (cancel: (reason: unknown) => void) => stream.onAbort(cancel),
  };
}

/** `options` with the `priority` option's choice, when it made one (a copy: the caller's stays as is). */
function withPriority(
  options: NotificationOptions | undefined,
  priority: MessagePriority | undefined,
): NotificationOptions | undefined {
  return priority === undefined ? options : { ...options, priority };
}

/** The queue of an engine with a finite `maxConcurrentRequests`, else none. */
function inboundQueue(options: ProtocolOptions): InboundQueue | undefined {
  const { maxConcurrentRequests, maxQueuedRequests } = resolveRequestLimits(options);
  return Number.isFinite(maxConcurrentRequests)
    ? new InboundQueue(maxConcurrentRequests, maxQueuedRequests)
    : undefined;
}

/** The error pending requests get when the connection ends: the transport's reason when it gave one. */
function closedError(reason: Error | undefined): ConnectionClosedError {
  if (reason === undefined) return new ConnectionClosedError();
  if (reason instanceof ConnectionClosedError) return reason;
  return new ConnectionClosedError(`Connection closed: ${reason.message}`, { cause: reason });
}

/** Fails request `id` when its send rejects (out of `request()`, which then needs no closure context). */
function failOnRejection(sent: PromiseLike<unknown>, pending: PendingRequests, id: RequestId): void {
  sent.then(undefined, (error: unknown) => pending.fail(id, error));
}
