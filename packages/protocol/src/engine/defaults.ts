/**
 * Idle timeout of an outgoing request when neither the engine nor the call sets one (DESIGN §3).
 *
 * @example
 * ```ts
 * // Give every request of this engine twice the default idle time.
 * const protocol = new Protocol({ timeout: 2 * DEFAULT_REQUEST_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * Rounds one 2026-07-28 request may take to satisfy `input_required` answers (`maxInputRounds` of the
 * `Client`, and of the gRPC native binding's `dependent_requests`): 8, room for a tool that asks a few
 * questions in turn, a bound on a server that keeps asking. The error past it names the option.
 *
 * @example
 * ```ts
 * const client = new Client(info, { maxInputRounds: 2 * DEFAULT_MAX_INPUT_ROUNDS });
 * ```
 */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/**
 * Hard limit of an outgoing request that progress notifications cannot extend (spec: basic/lifecycle,
 * "Timeouts": implementations SHOULD always enforce a maximum timeout). Ten minutes: long enough for a
 * slow tool that reports progress, short enough that a peer streaming progress forever cannot pin the
 * request.
 *
 * @example
 * ```ts
 * // Long-running tools that keep reporting progress may run for half an hour.
 * const protocol = new Protocol({ maxTotalTimeout: 3 * DEFAULT_MAX_TOTAL_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/**
 * `initialize` MUST NOT be cancelled (spec: basic/utilities/cancellation, "Behavior Requirements").
 *
 * @example
 * ```ts
 * // Keep `initialize` uncancellable and add a method of our own.
 * const protocol = new Protocol({ uncancellableMethods: [...DEFAULT_UNCANCELLABLE_METHODS, 'x/commit'] });
 * ```
 */
export const DEFAULT_UNCANCELLABLE_METHODS: readonly string[] = ['initialize'];

/**
 * Requests that never carry a progress token unless the caller passes `onprogress`: the handshake, the
 * liveness check and those a peer answers from state it holds (log level, task status). Every other request with a finite timeout and
 * `resetTimeoutOnProgress` on asks for progress even without a callback, so a peer that reports
 * progress keeps a long request alive up to `maxTotalTimeout` (spec: basic/utilities/progress).
 *
 * @example
 * ```ts
 * if (!PROGRESS_UNASKED_METHODS.includes(request.method)) console.log('asks for progress by default');
 * ```
 */
export const PROGRESS_UNASKED_METHODS: readonly string[] = [
  'ping',
  'initialize',
  'server/discover',
  'logging/setLevel',
  'tasks/get',
  'tasks/list',
  'tasks/cancel',
];

/**
 * Request handlers of normal and bulk requests one engine (one session) runs at once
 * (`maxConcurrentRequests`): no limit, so the queue is off and costs nothing. Off rather than a
 * generous number because a limit changes what a server does, and only its author knows whether
 * that is safe: requests that stay open by design (a 2026-07-28 `subscriptions/listen` stream, a
 * 2025-11-25 `tasks/result` waiting for its task, a tool that waits for another call of the same
 * client) each hold a slot, so a default of 64 would stall a client holding 64 of them, and a
 * per-session limit does not bound a server's work anyway (sessions do; see `DEFAULT_MAX_SESSIONS`).
 * Turn it on with a number fitted to the handlers; urgent requests never count against it.
 *
 * @example
 * ```ts
 * // One slow export at a time per session; pings and cancellations still pass at once.
 * const server = new McpServer(info, { maxConcurrentRequests: 1 });
 * if (DEFAULT_MAX_CONCURRENT_REQUESTS === Number.POSITIVE_INFINITY) console.log('no limit by default');
 * ```
 */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = Number.POSITIVE_INFINITY;

/**
 * Requests that may wait for a handler slot once `maxConcurrentRequests` are running
 * (`maxQueuedRequests`): 1 000, the bound the transports put on messages waiting for a peer
 * (`DEFAULT_MAX_QUEUED_MESSAGES`): room for a burst, a bound on what a flooding peer makes a session
 * hold. Past it a request is answered at once with -32600 naming the option.
 *
 * @example
 * ```ts
 * new Protocol({ maxConcurrentRequests: 4, maxQueuedRequests: DEFAULT_MAX_QUEUED_REQUESTS / 10 });
 * ```
 */
export const DEFAULT_MAX_QUEUED_REQUESTS = 1_000;
