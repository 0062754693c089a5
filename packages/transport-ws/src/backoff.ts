/**
 * Reconnect policy of a client transport.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport('wss://mcp.example.com/mcp', {
 *   reconnect: { initialDelayMs: 1_000, maxDelayMs: 60_000, maxAttempts: 20 },
 * });
 * transport.onreconnect = () => console.log('back online');
 * ```
 */
export interface ReconnectOptions {
  /** Delay before the first attempt after a drop. Default 500 ms. */
  initialDelayMs?: number | undefined;
  /** Ceiling for the doubling delay. Default 30 s. */
  maxDelayMs?: number | undefined;
  /** Attempts per outage before giving up and firing `onclose`. Default 10. */
  maxAttempts?: number | undefined;
}

export type ResolvedReconnectOptions = Required<{ [K in keyof ReconnectOptions]: number }>;

export function resolveReconnectOptions(
  option: boolean | ReconnectOptions | undefined,
): ResolvedReconnectOptions | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  return {
    initialDelayMs: given.initialDelayMs ?? 500,
    maxDelayMs: given.maxDelayMs ?? 30_000,
    maxAttempts: given.maxAttempts ?? 10,
  };
}

/**
 * Exponential backoff with jitter: attempt n waits between half and all of `initial · 2^(n-1)` (capped),
 * so clients dropped together by a server restart do not reconnect in lockstep.
 */
export function backoffDelay(attempt: number, options: ResolvedReconnectOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
