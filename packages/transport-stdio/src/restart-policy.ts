import {
  type JSONRPCMessage,
  type ReconnectOptions,
  type RequestId,
  type ResolvedReconnectOptions,
  reconnectDelay,
  resolveReconnect,
  TransportLostError,
  transportLostResponse,
} from '@x/protocol/core';
import { InFlightSet } from '@x/protocol/transport';
import type { ServerExitError } from './errors.js';

/**
 * `StdioClientTransportOptions.restart`: the `ReconnectOptions` backoff between restarts, where
 * `maxAttempts` counts the restarts allowed within `windowMs`; one crash more closes the transport.
 *
 * @example
 * ```ts
 * new StdioClientTransport({ command: 'node', args: ['server.js'], restart: { maxAttempts: 3, windowMs: 30_000 } });
 * ```
 */
export interface RestartOptions extends ReconnectOptions {
  /** The window `maxAttempts` counts restarts in, in ms. Default 60 000. */
  windowMs?: number | undefined;
}

/**
 * Restart defaults: 5 restarts a minute at most, 100 ms doubling up to 5 s, jitter 0.5.
 *
 * @example
 * ```ts
 * new StdioClientTransport({ command, restart: { ...STDIO_RESTART_DEFAULTS, maxAttempts: 10 } });
 * ```
 */
export const STDIO_RESTART_DEFAULTS: Readonly<ResolvedReconnectOptions & { windowMs: number }> =
  Object.freeze({
    initialDelayMs: 100,
    maxDelayMs: 5_000,
    factor: 2,
    maxAttempts: 5,
    jitter: 0.5,
    windowMs: 60_000,
  });

/**
 * The bookkeeping of a restarting stdio client: the requests in flight (answered with a synthesized
 * -32000 when their server dies: "any in-flight requests are simply lost and the client can retry them
 * against the fresh process", 2026-07-28 basic/transports/stdio, "Unexpected Termination") and the
 * restarts within the window.
 */
export class RestartPolicy {
  readonly #backoff: ResolvedReconnectOptions;
  readonly #windowMs: number;
  readonly #inFlight = new InFlightSet<RequestId>();
  #restarts: number[] = [];

  constructor(option: true | RestartOptions) {
    this.#backoff = resolveReconnect(option, STDIO_RESTART_DEFAULTS, true)!;
    const windowMs = option === true ? undefined : option.windowMs;
    if (windowMs !== undefined && !(windowMs >= 0)) {
      throw new RangeError(`restart.windowMs must be a number ≥ 0, got ${String(windowMs)}`);
    }
    this.#windowMs = windowMs ?? STDIO_RESTART_DEFAULTS.windowMs;
  }

  get maxAttempts(): number {
    return this.#backoff.maxAttempts;
  }

  get windowMs(): number {
    return this.#windowMs;
  }

  sent(id: RequestId): void {
    this.#inFlight.add(id);
  }

  answered(id: RequestId): void {
    this.#inFlight.delete(id);
  }

  /** The delay before the next restart, or undefined when the window's budget is spent. */
  nextDelay(now: number): number | undefined {
    this.#restarts = this.#restarts.filter((at) => now - at < this.#windowMs);
    if (this.#restarts.length >= this.#backoff.maxAttempts) return undefined;
    this.#restarts.push(now);
    return reconnectDelay(this.#backoff, this.#restarts.length - 1);
  }

  /** Error answers for every request the dead server never answered, each rejecting its request with one `TransportLostError`. */
  lostAnswers(exit: ServerExitError): JSONRPCMessage[] {
    const data = {
      exitCode: exit.exitCode,
      signal: exit.signal,
      stderrTail: exit.stderrTail,
    };
    return this.#lose(
      `${exit.message}\n(restarting it; the response never arrived, the request may have run)`,
      data,
      exit,
    );
  }

  /**
   * Error answers for every request a hung server (declared dead by the heartbeat, `resetConnection`)
   * never answered: one `TransportLostError` whose `cause` is `reason`.
   */
  abandonedAnswers(reason: Error): JSONRPCMessage[] {
    return this.#lose(
      `${reason.message}\n(restarting the unresponsive server; the response never arrived, the request may have run)`,
      undefined,
      reason,
    );
  }

  #lose(message: string, data: unknown, cause: Error): JSONRPCMessage[] {
    const ids = [...this.#inFlight];
    this.#inFlight.clear();
    if (ids.length === 0) return [];
    const lost = new TransportLostError(message, { transport: 'stdio', data, cause });
    return ids.map((id) => transportLostResponse(id, lost));
  }

  clear(): void {
    this.#inFlight.clear();
  }
}
