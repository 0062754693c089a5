/**
 * How long one call of a shared store (`SessionStore`, `EventStore`, `MessageBus`, `SubscriptionFanOut`,
 * `TaskStore`) may take before the request that waits for it is answered without it: 2 000 ms. A store
 * that never answers (a frozen Redis, a reconnecting client that queues commands) must not hold HTTP
 * requests open (issue #35, finding 6). The transports' and the server's `storeTimeoutMs` default.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, sessionStore, storeTimeoutMs: DEFAULT_STORE_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_STORE_TIMEOUT_MS = 2_000;

/**
 * A store call that did not settle within `storeTimeoutMs`. Its message names the store and the option,
 * never the store's address, so it may be shown to a client as it is (the HTTP transport answers 503
 * with it).
 *
 * @example
 * ```ts
 * handler = createStreamableHttpHandler({
 *   onsession,
 *   sessionStore,
 *   onerror: (error) => {
 *     if (error instanceof StoreTimeoutError) metrics.increment(`store-timeout.${error.store}`);
 *   },
 * });
 * ```
 */
export class StoreTimeoutError extends Error {
  /** Which store: `'session store'`, `'event store'`, `'message bus'`, `'subscription fan-out'`, `'task store'`. */
  readonly store: string;
  readonly timeoutMs: number;

  constructor(store: string, timeoutMs: number) {
    super(`${store} did not answer within ${timeoutMs} ms (storeTimeoutMs)`);
    this.name = 'StoreTimeoutError';
    this.store = store;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A store call that failed, as a peer may see it: the message names the store only, since the store's
 * own error may carry its address or credentials; that error is the `cause`. What a bounded store
 * rejects with when its deadline was made with `hideFailures` (the server's stores: a handler's error
 * message goes to the client).
 *
 * @example
 * ```ts
 * try {
 *   await store.get(taskId);
 * } catch (error) {
 *   if (error instanceof StoreFailedError) log.warn(error.store, error.cause);
 * }
 * ```
 */
export class StoreFailedError extends Error {
  readonly store: string;

  constructor(store: string, cause: unknown) {
    super(`${store} failed`, { cause });
    this.name = 'StoreFailedError';
    this.store = store;
  }
}

/**
 * Options of {@link StoreDeadline} besides its time.
 *
 * @example
 * ```ts
 * const deadline = new StoreDeadline(2_000, { hideFailures: true });
 * ```
 */
export interface StoreDeadlineOptions {
  /** Reject with a {@link StoreFailedError} (store's error as `cause`) instead of the store's own error. */
  hideFailures?: boolean | undefined;
}

/**
 * The deadline every call of a bounded store runs under (see `boundSessionStore` and its siblings).
 * Undefined is the default (`DEFAULT_STORE_TIMEOUT_MS`); `Infinity` turns the deadline off.
 *
 * @example
 * ```ts
 * const deadline = new StoreDeadline(500);
 * const record = await deadline.run('session store', () => store.get(sessionId)); // StoreTimeoutError after 500 ms
 * ```
 */
export class StoreDeadline {
  readonly timeoutMs: number;
  readonly #hideFailures: boolean;

  constructor(timeoutMs: number | undefined = DEFAULT_STORE_TIMEOUT_MS, options: StoreDeadlineOptions = {}) {
    this.#hideFailures = options.hideFailures === true;
    if (!(timeoutMs > 0)) {
      throw new RangeError(`storeTimeoutMs must be a positive number of milliseconds (got ${timeoutMs})`);
    }
    this.timeoutMs = timeoutMs;
  }

  /**
   * `call()`, or a {@link StoreTimeoutError} once `timeoutMs` passed. The call itself goes on (a store
   * call cannot be cancelled): its late failure is swallowed, its late value goes to `late` (e.g. to end
   * a subscription nobody will use).
   */
  run<T>(store: string, call: () => Promise<T>, late?: (value: T) => void): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (error) {
      pending = Promise.reject(error);
    }
    if (this.#hideFailures) {
      pending = pending.catch((error: unknown) => {
        throw error instanceof StoreTimeoutError || error instanceof StoreFailedError
          ? error
          : new StoreFailedError(store, error);
      });
    }
    if (this.timeoutMs === Number.POSITIVE_INFINITY) return pending;
    return new Promise<T>((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(new StoreTimeoutError(store, this.timeoutMs));
      }, this.timeoutMs);
      // A deadline never keeps a process alive by itself.
      (timer as { unref?: () => void }).unref?.();
      pending.then(
        (value) => {
          clearTimeout(timer);
          if (!timedOut) resolve(value);
          else late?.(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (!timedOut) reject(error);
        },
      );
    });
  }
}
