import type { CancelHandle } from '../cancel-handle.js';
import { ErrorCode, McpError, RequestTimeoutError } from '../errors.js';
import type { JSONRPCResponse, RequestId } from '../jsonrpc.js';
import type { ProgressParams } from './builtin-params.js';
import { InFlightMap } from '../in-flight-map.js';
import { fastAccepts } from '../schemas/fast-check.js';
import { schemaOrLoad } from '../schemas/lazy-schema.js';
import { isThenable } from '../thenable.js';
import { formatIssues } from './format-issues.js';
import type { ProgressCallback, RequestOptions, ZodSchema } from './types.js';

/** setTimeout stores delays as a signed 32-bit int; anything longer would fire at once. */
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * The `nextTick` of Node (and Bun), looked up once on `globalThis.process`; undefined in runtimes
 * without it, whose timers hold no process open anyway. See `PendingRequests#take`.
 */
const host = globalThis as { process?: { nextTick?: (callback: () => void) => void } };
const nextTick = host.process?.nextTick?.bind(host.process);

/** The engine's defaults for what a request's `RequestOptions` leave unset. */
export interface RequestDefaults {
  readonly timeout: number;
  readonly maxTotalTimeout: number;
  readonly resetTimeoutOnProgress: boolean;
}

/**
 * Called after an outgoing request was given up on locally (its caller aborted, or it timed out), so
 * the engine can tell the peer with `notifications/cancelled` (spec: basic/lifecycle, "Timeouts").
 */
export type GiveUpListener = (request: PendingRequest, reason: string | undefined) => void;

/** Outcome of a response for `PendingRequests.settle()`. */
export type SettleOutcome = 'settled' | 'stale' | 'unknown';

/**
 * One outgoing request waiting for its response. Its fields are `declare`d and set once in the
 * constructor: plain field declarations would first be defined (as undefined) by a separate
 * initializer call, on every request.
 */
export class PendingRequest {
  declare readonly id: number;
  declare readonly method: string;
  declare readonly relatedRequestId: RequestId | undefined;
  declare readonly schema: ZodSchema;
  declare readonly onprogress: ProgressCallback | undefined;
  declare readonly signal: AbortSignal | undefined;
  declare readonly stream: CancelHandle | undefined;
  declare readonly timeout: number;
  declare readonly maxTotalTimeout: number;
  declare readonly resetTimeoutOnProgress: boolean;
  declare readonly startedAt: number;
  declare lastActivity: number;
  /** Set by `PendingRequests.track()`. */
  declare resolve: (value: unknown) => void;
  declare reject: (reason: unknown) => void;
  /** Called when `signal` aborts. */
  declare readonly onAbort: (request: PendingRequest) => void;

  constructor(
    id: number,
    method: string,
    // A lazily built schema stays a facade: a result its fast check accepts never needs it built.
    schema: ZodSchema,
    options: RequestOptions | undefined,
    defaults: RequestDefaults,
    // The request's own stream on a per-request-stream transport, closed when the request is given up.
    stream: CancelHandle | undefined,
    onAbort: (request: PendingRequest) => void,
    // The request carries a progress token: without a callback, progress still moves its timeout.
    asksProgress: boolean,
  ) {
    this.id = id;
    this.method = method;
    this.schema = schema;
    this.stream = stream;
    this.resolve = unsettled;
    this.reject = unsettled;
    this.onAbort = onAbort;
    this.startedAt = performance.now();
    this.lastActivity = this.startedAt;
    if (options === undefined) {
      this.relatedRequestId = undefined;
      this.onprogress = asksProgress ? keepAlive : undefined;
      this.signal = undefined;
      this.timeout = defaults.timeout;
      this.maxTotalTimeout = defaults.maxTotalTimeout;
      this.resetTimeoutOnProgress = defaults.resetTimeoutOnProgress;
    } else {
      this.relatedRequestId = options.relatedRequestId;
      this.onprogress = options.onprogress ?? (asksProgress ? keepAlive : undefined);
      this.signal = options.signal;
      this.timeout = options.timeout ?? defaults.timeout;
      this.maxTotalTimeout = options.maxTotalTimeout ?? defaults.maxTotalTimeout;
      this.resetTimeoutOnProgress = options.resetTimeoutOnProgress ?? defaults.resetTimeoutOnProgress;
    }
  }

  /** When this request times out unless progress moves it (ms on the `performance.now()` clock). */
  get due(): number {
    return Math.min(this.lastActivity + this.timeout, this.startedAt + this.maxTotalTimeout);
  }

  /**
   * The entry itself is the abort listener (an EventListener object), so a request with a signal costs
   * no extra closure.
   */
  handleEvent(): void {
    this.onAbort(this);
  }
}

/**
 * The outgoing half of the engine: issues ids, keeps each request until its response, timeout, abort or
 * the connection's end, and routes progress to it.
 *
 * Ids are 1, 2, 3… per engine and never reused, so any id below the next one that is no longer pending
 * is a late answer to something already settled (answered, timed out or cancelled) and can be told apart
 * from an id this engine never issued.
 *
 * Timeouts share one timer per engine, armed for the earliest deadline: a request only re-arms it when
 * it is due sooner than the armed time, so a stream of calls with the same timeout sets one timer, not
 * one each. Progress only records the time; when the timer fires it times out whatever is overdue and
 * re-arms for the next deadline (cheap under progress floods). The timer is unref'd while nothing is
 * pending, so an idle engine never holds a Node process open, as a pending request does; the unref
 * after the last answer waits for the end of the tick, so a caller that sends its next request from
 * the answer (a sequential loop) keeps the timer held rather than flipping it twice per call.
 */
export class PendingRequests {
  #nextId = 1;
  readonly #map = new InFlightMap<RequestId, PendingRequest>();
  readonly #onGiveUp: GiveUpListener;
  readonly #defaults: RequestDefaults;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When `#timer` fires; +Infinity while none is armed. */
  #timerDue = Number.POSITIVE_INFINITY;
  #timerHeld = false;
  /** A `#release` is queued for the end of the tick. */
  #releasing = false;

  /**
   * @param peer Who answers, as an error names it ("the server"); undefined names nobody.
   */
  /** ` from <peer>` for error messages, or nothing. */
  readonly #from: string;

  constructor(onGiveUp: GiveUpListener, defaults: RequestDefaults, peer?: string) {
    this.#onGiveUp = onGiveUp;
    this.#defaults = defaults;
    this.#from = peer === undefined ? '' : ` from ${peer}`;
  }

  get size(): number {
    return this.#map.size;
  }

  nextId(): number {
    return this.#nextId++;
  }

  /** Whether `id` was issued by this engine (pending or not). */
  wasIssued(id: unknown): boolean {
    return typeof id === 'number' && Number.isInteger(id) && id >= 1 && id < this.#nextId;
  }

  /**
   * Starts tracking request `id` (a number from `nextId()`); the promise settles with its validated
   * result or an error.
   */
  track(
    id: number,
    method: string,
    schema: ZodSchema,
    options: RequestOptions | undefined,
    stream: CancelHandle | undefined,
    asksProgress = options?.onprogress !== undefined,
  ): Promise<unknown> {
    const request = new PendingRequest(
      id,
      method,
      schema,
      options,
      this.#defaults,
      stream,
      this.#abort,
      asksProgress,
    );
    const promise = new Promise((resolve, reject) => {
      request.resolve = resolve;
      request.reject = reject;
    });
    this.#map.set(id, request);
    request.signal?.addEventListener('abort', request, { once: true });
    const due = request.due;
    if (due < this.#timerDue) this.#arm(due, request.startedAt);
    else if (!this.#timerHeld) this.#hold(true);
    return promise;
  }

  /** Rejects request `id` (e.g. its send failed) without telling the peer; false if it was not pending. */
  fail(id: RequestId, error: unknown): boolean {
    const request = this.#take(id);
    request?.reject(error);
    return request !== undefined;
  }

  /** Resolves or rejects the request a response answers. */
  settle(response: JSONRPCResponse): SettleOutcome {
    const id = response.id;
    const request = id === undefined || id === null ? undefined : this.#take(id);
    if (request === undefined) return this.wasIssued(id) ? 'stale' : 'unknown';
    if ('error' in response) {
      request.reject(McpError.fromError(response.error));
      return 'settled';
    }
    if (fastAccepts(request.schema, response.result)) {
      request.resolve(response.result);
      return 'settled';
    }
    const schema = schemaOrLoad(request.schema);
    if (isThenable(schema)) {
      // A deferred schema (the browser client's): the result waits for it to load, once per schema.
      schema.then(
        (loaded) => this.#parseResult(request, loaded, response.result),
        (error: unknown) => request.reject(error),
      );
    } else {
      this.#parseResult(request, schema, response.result);
    }
    return 'settled';
  }

  /** Settles `request` with `result` as `schema` parses it, or with -32603 naming the issues. */
  #parseResult(request: PendingRequest, schema: ZodSchema, result: unknown): void {
    const parsed = schema.safeParse(result);
    if (parsed.success) {
      request.resolve(parsed.data);
      return;
    }
    // InternalError rather than InvalidParams: the peer's answer is malformed, our params were fine.
    request.reject(
      new McpError(
        ErrorCode.InternalError,
        `Invalid result for ${request.method}${this.#from}: ${formatIssues(parsed.error)}`,
        undefined,
        { cause: parsed.error },
      ),
    );
  }

  /**
   * Routes a progress notification to its request (the token is the request id). Returns the same
   * outcomes as `settle()`; a throwing callback propagates to the caller.
   */
  progress(params: ProgressParams): SettleOutcome {
    const request = this.#map.get(params.progressToken);
    if (request?.onprogress === undefined) {
      return this.wasIssued(params.progressToken) ? 'stale' : 'unknown';
    }
    if (request.resetTimeoutOnProgress) request.lastActivity = performance.now();
    request.onprogress(params);
    return 'settled';
  }

  /** Rejects every pending request (connection closed) and clears the timer. */
  rejectAll(error: unknown): void {
    const requests = [...this.#map.values()];
    this.#map.clear();
    this.#disarm();
    for (const request of requests) {
      dispose(request);
      request.reject(error);
    }
  }

  #take(id: RequestId): PendingRequest | undefined {
    const request = this.#map.take(id);
    if (request === undefined) return undefined;
    dispose(request);
    if (this.#timerHeld && this.#map.size === 0 && !this.#releasing) {
      // A sequential caller would otherwise unref and ref the timer once each per call (each a change
      // to libuv's count of live handles). Letting go at the end of the tick costs no exit time: Node
      // runs the tick queue before it looks for live handles.
      if (nextTick === undefined) this.#hold(false);
      else {
        this.#releasing = true;
        nextTick(this.#release);
      }
    }
    return request;
  }

  readonly #release = (): void => {
    this.#releasing = false;
    if (this.#timerHeld && this.#map.size === 0) this.#hold(false);
  };

  /** Arms the shared timer for `due` (replacing a later one); infinite or NaN deadlines arm nothing. */
  #arm(due: number, now: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    this.#timerHeld = false;
    if (!(due < Number.POSITIVE_INFINITY)) return;
    this.#timer = setTimeout(this.#onTimer, Math.min(Math.max(due - now, 0), MAX_TIMER_DELAY));
    this.#timerDue = due;
    this.#timerHeld = true;
    if (this.#map.size === 0) this.#hold(false);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    this.#timerHeld = false;
  }

  /** Lets the armed timer keep a Node process alive (`ref`) or not (`unref`); a no-op elsewhere. */
  #hold(held: boolean): void {
    const timer = this.#timer as { ref?: () => void; unref?: () => void } | undefined;
    if (timer === undefined) return;
    this.#timerHeld = held;
    if (held) timer.ref?.();
    else timer.unref?.();
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    this.#timerHeld = false;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const request of [...this.#map.values()]) {
      const due = request.due;
      if (now < due) {
        if (due < next) next = due;
      } else if (this.#map.get(request.id) === request) {
        this.#expire(request, now);
      }
    }
    if (this.#map.size > 0) this.#arm(next, now);
  };

  #expire(request: PendingRequest, now: number): void {
    this.#take(request.id);
    const hardLimitHit = now >= request.startedAt + request.maxTotalTimeout;
    const limit = hardLimitHit ? request.maxTotalTimeout : request.timeout;
    const message = hardLimitHit
      ? `Request ${request.method} exceeded its maximum total timeout of ${limit} ms`
      : `Request ${request.method} timed out after ${limit} ms`;
    const data = Number.isFinite(request.maxTotalTimeout)
      ? { timeout: request.timeout, maxTotalTimeout: request.maxTotalTimeout }
      : { timeout: request.timeout };
    request.reject(new RequestTimeoutError(message, data));
    this.#onGiveUp(request, message);
  }

  readonly #abort = (request: PendingRequest): void => {
    if (this.#map.get(request.id) !== request) return;
    this.#take(request.id);
    const reason: unknown = request.signal?.reason;
    request.reject(reason);
    this.#onGiveUp(request, reasonText(reason));
  };
}

/** The callback of a request that asked for progress only to stay alive (`PendingRequest.onprogress`). */
function keepAlive(): void {}

function unsettled(): void {}

function dispose(request: PendingRequest): void {
  request.signal?.removeEventListener('abort', request);
}

function reasonText(reason: unknown): string | undefined {
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message || undefined;
  return undefined;
}
