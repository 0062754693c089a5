/**
 * How the client retries a dropped SSE stream (2025-11-25 "Resumability and Redelivery").
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
 *   reconnection: { initialDelayMs: 250, maxDelayMs: 10_000, growFactor: 2, maxRetries: 8 },
 * });
 * ```
 */
export interface ReconnectionOptions {
  /** First delay when the server sent no `retry` field. Default 1 000 ms. */
  initialDelayMs?: number | undefined;
  /** Upper bound of any delay. Default 30 000 ms. */
  maxDelayMs?: number | undefined;
  /** Growth per failed attempt. Default 1.5. */
  growFactor?: number | undefined;
  /** Failed attempts in a row before giving up on the stream. Default 5. */
  maxRetries?: number | undefined;
}

export type ResolvedReconnection = Required<{ [K in keyof ReconnectionOptions]: number }>;

export function resolveReconnection(options: ReconnectionOptions | undefined): ResolvedReconnection {
  return {
    initialDelayMs: options?.initialDelayMs ?? 1_000,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
    growFactor: options?.growFactor ?? 1.5,
    maxRetries: options?.maxRetries ?? 5,
  };
}

/**
 * Delay before reconnect attempt `attempt` (0-based): the server's `retry` is the base when it sent one
 * ("The client MUST respect the retry field"), then capped exponential growth for repeated failures.
 */
export function reconnectDelay(
  options: ResolvedReconnection,
  attempt: number,
  serverRetryMs: number | undefined,
): number {
  const base = serverRetryMs ?? options.initialDelayMs;
  return Math.min(base * options.growFactor ** attempt, Math.max(options.maxDelayMs, serverRetryMs ?? 0));
}
