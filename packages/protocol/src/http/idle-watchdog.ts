/**
 * Default `idleTimeoutMs` of the HTTP clients' long-lived SSE streams: three keep-alive intervals of
 * the x-mcp HTTP servers (`keepAliveMs`, 15 s), so one or two comments delayed by a busy server or
 * network do not end a healthy stream.
 *
 * @example
 * ```ts
 * new StreamableHttpClientTransport(url, { idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS * 2 });
 * ```
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

/**
 * Calls `onIdle` once when nothing was `touch()`ed for `timeoutMs` after `arm()`. A touch only records
 * the time (it runs for every chunk of the stream); the single timer checks that time when it fires and
 * sleeps again for the rest of the interval. The silence detector of both HTTP client transports.
 *
 * @example
 * ```ts
 * const idle = new IdleWatchdog({ timeoutMs: 45_000, onIdle: () => stream.abort() });
 * idle.arm(); // from now on
 * onChunk = () => idle.touch();
 * ```
 */
export class IdleWatchdog {
  readonly #timeoutMs: number;
  readonly #onIdle: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastActivity = 0;
  #stopped = false;

  constructor(options: { timeoutMs: number; onIdle: () => void }) {
    this.#timeoutMs = options.timeoutMs;
    this.#onIdle = options.onIdle;
  }

  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** Starts watching (from now); no-op when already armed, stopped, or the timeout is 0 (disabled). */
  arm(): void {
    if (this.#timer !== undefined || this.#stopped || this.#timeoutMs <= 0) return;
    this.touch();
    this.#schedule(this.#timeoutMs);
  }

  /** Something arrived: the peer is alive. */
  touch(): void {
    this.#lastActivity = performance.now();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => this.#check(), delayMs);
    // The stream itself keeps the process alive while it is open; the watchdog never should.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #check(): void {
    if (this.#stopped) return;
    const idle = performance.now() - this.#lastActivity;
    if (idle < this.#timeoutMs) {
      this.#schedule(this.#timeoutMs - idle);
      return;
    }
    this.stop();
    this.#onIdle();
  }
}
