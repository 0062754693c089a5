import { ConnectionClosedError, McpError, RequestTimeoutError } from '../errors.js';

/**
 * The MCP-level heartbeat of a `Client`, `Server` or `Protocol` (`heartbeat` option): every
 * `intervalMs` it sends a liveness probe (`ping`; see each side for the 2026-07-28 era, which removed
 * `ping`) and waits `timeoutMs` for the answer. `maxMisses` unanswered probes in a row (the next probe
 * goes out at once after a miss) declare the connection dead: the engine closes the transport and
 * every pending request, and `onerror`, get a `HeartbeatTimeoutError` naming these options. Any answer,
 * an error response included, proves the peer alive.
 *
 * @example
 * ```ts
 * const client = new Client(info, { heartbeat: { intervalMs: 15_000, timeoutMs: 5_000, maxMisses: 2 } });
 * ```
 */
export interface HeartbeatOptions {
  /** Time between probes, in ms. Default 120 000 (`DEFAULT_HEARTBEAT.intervalMs`). */
  intervalMs?: number | undefined;
  /** How long one probe waits for its answer, in ms. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Unanswered probes in a row that declare the connection dead (≥ 1). Default 2. */
  maxMisses?: number | undefined;
}

/** {@link HeartbeatOptions} with every field set. */
export type ResolvedHeartbeat = Readonly<Required<{ [K in keyof HeartbeatOptions]: number }>>;

/**
 * The heartbeat's defaults: a long interval, because a network client pays one request per interval
 * per connection (a server with 10 000 clients answers ~83 probes a second at 2 minutes), and the
 * transports already watch the link itself (WebSocket ping/pong, SSE keep-alive comments); the MCP
 * heartbeat is there to catch a peer that is connected but no longer answers. Dead after at most
 * `intervalMs + maxMisses × timeoutMs` (3 minutes).
 *
 * @example
 * ```ts
 * new Client(info, { heartbeat: { ...DEFAULT_HEARTBEAT, intervalMs: 30_000 } });
 * ```
 */
export const DEFAULT_HEARTBEAT: ResolvedHeartbeat = Object.freeze({
  intervalMs: 120_000,
  timeoutMs: 30_000,
  maxMisses: 2,
});

/**
 * The connection was declared dead by the heartbeat (`heartbeat.maxMisses` probes in a row got no
 * answer within `heartbeat.timeoutMs`). A `ConnectionClosedError`, so code that handles a lost
 * connection handles this one too; pending requests reject with it.
 *
 * @example
 * ```ts
 * client.onerror = (error) => {
 *   if (error instanceof HeartbeatTimeoutError) reconnectLater(error.misses);
 * };
 * ```
 */
export class HeartbeatTimeoutError extends ConnectionClosedError {
  readonly misses: number;

  constructor(settings: ResolvedHeartbeat, options?: { cause?: unknown }) {
    super(
      `Connection declared dead: ${settings.maxMisses} heartbeat probe(s) in a row got no answer within ` +
        `heartbeat.timeoutMs (${settings.timeoutMs} ms) (heartbeat.maxMisses ${settings.maxMisses}, ` +
        `heartbeat.intervalMs ${settings.intervalMs})`,
      options,
    );
    this.misses = settings.maxMisses;
  }
}

/**
 * `true` → the defaults; an object → merged over them; `false`/`undefined` → off. Throws a `TypeError`
 * naming the field for a value no timer can use.
 *
 * @example
 * ```ts
 * resolveHeartbeat({ intervalMs: 10_000 }); // { intervalMs: 10000, timeoutMs: 30000, maxMisses: 2 }
 * ```
 */
export function resolveHeartbeat(
  option: boolean | HeartbeatOptions | undefined,
): ResolvedHeartbeat | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return DEFAULT_HEARTBEAT;
  const resolved = {
    intervalMs: option.intervalMs ?? DEFAULT_HEARTBEAT.intervalMs,
    timeoutMs: option.timeoutMs ?? DEFAULT_HEARTBEAT.timeoutMs,
    maxMisses: option.maxMisses ?? DEFAULT_HEARTBEAT.maxMisses,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value < 1) {
      throw new TypeError(`heartbeat.${name} must be a finite number ≥ 1, got ${value}`);
    }
  }
  return resolved;
}

/** What a heartbeat needs of its engine. */
export interface HeartbeatHost {
  /**
   * Sends one probe that rejects after `timeoutMs`, or returns undefined when there is nothing to probe
   * right now (e.g. still negotiating): the tick is skipped.
   */
  probe(timeoutMs: number): Promise<unknown> | undefined;
  /** The connection is dead: close it with `error`. */
  dead(error: HeartbeatTimeoutError): void;
}

/**
 * The timer behind {@link HeartbeatOptions}: one `setTimeout` at a time, never keeping a process alive
 * on its own (the connection does that).
 */
export class Heartbeat {
  readonly #settings: ResolvedHeartbeat;
  readonly #host: HeartbeatHost;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #misses = 0;
  #stopped = false;

  constructor(settings: ResolvedHeartbeat, host: HeartbeatHost) {
    this.#settings = settings;
    this.#host = host;
    this.#schedule(settings.intervalMs);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#tick(), delayMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #tick(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    let probe: Promise<unknown> | undefined;
    try {
      probe = this.#host.probe(this.#settings.timeoutMs);
    } catch (error) {
      probe = Promise.reject(error);
    }
    if (probe === undefined) {
      this.#schedule(this.#settings.intervalMs);
      return;
    }
    probe.then(
      () => this.#answered(),
      (error: unknown) => {
        // An error response is an answer: the peer is there. A closed connection ends the heartbeat.
        if (error instanceof ConnectionClosedError) return this.stop();
        if (error instanceof McpError && !(error instanceof RequestTimeoutError)) return this.#answered();
        this.#missed(error);
      },
    );
  }

  #answered(): void {
    this.#misses = 0;
    this.#schedule(this.#settings.intervalMs);
  }

  #missed(cause: unknown): void {
    if (this.#stopped) return;
    this.#misses++;
    if (this.#misses < this.#settings.maxMisses) {
      this.#schedule(0);
      return;
    }
    this.stop();
    this.#host.dead(new HeartbeatTimeoutError(this.#settings, { cause }));
  }
}
