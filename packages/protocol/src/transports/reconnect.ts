/**
 * How a client transport re-establishes a connection it lost (a WebSocket, a Streamable HTTP SSE
 * stream): one shape and one backoff for every transport, so `reconnect` means the same everywhere.
 *
 * @example
 * ```ts
 * const reconnect: ReconnectOptions = { initialDelayMs: 250, maxDelayMs: 10_000, factor: 2, maxAttempts: 8, jitter: 0.5 };
 * new WebSocketClientTransport('wss://mcp.example.com/mcp', { reconnect });
 * new StreamableHttpClientTransport('https://mcp.example.com/mcp', { reconnect });
 * ```
 */
export interface ReconnectOptions {
  /** Delay before the first attempt (the server's SSE `retry`, when it sent one, takes its place). */
  initialDelayMs?: number | undefined;
  /** Upper bound of any delay (a longer SSE `retry` from the server still wins). */
  maxDelayMs?: number | undefined;
  /** Growth of the delay per failed attempt in a row (1 keeps it constant). */
  factor?: number | undefined;
  /** Failed attempts in a row before giving up; any success starts the count over. 0 never retries. */
  maxAttempts?: number | undefined;
  /**
   * Randomization, 0..1: each delay is drawn from [delay × (1 − jitter), delay], so clients dropped
   * together by a server restart do not come back in lockstep. 0 makes delays exact.
   */
  jitter?: number | undefined;
}

/** Every field of {@link ReconnectOptions} set. */
export type ResolvedReconnectOptions = Required<{ [K in keyof ReconnectOptions]: number }>;

/**
 * The full policy for a `reconnect` option: `true` or `undefined` (when `enabledByDefault`) give the
 * transport's defaults, `false` gives `undefined` (never reconnect), an object overrides some fields.
 *
 * @example
 * ```ts
 * const policy = resolveReconnect(options.reconnect, WEBSOCKET_RECONNECT_DEFAULTS, false);
 * if (policy !== undefined) setTimeout(reconnect, reconnectDelay(policy, 0));
 * ```
 */
export function resolveReconnect(
  option: boolean | ReconnectOptions | undefined,
  defaults: ResolvedReconnectOptions,
  enabledByDefault: boolean,
): ResolvedReconnectOptions | undefined {
  if (option === false || (option === undefined && !enabledByDefault)) return undefined;
  if (option === undefined || option === true) return defaults;
  const resolved: ResolvedReconnectOptions = {
    initialDelayMs: option.initialDelayMs ?? defaults.initialDelayMs,
    maxDelayMs: option.maxDelayMs ?? defaults.maxDelayMs,
    factor: option.factor ?? defaults.factor,
    maxAttempts: option.maxAttempts ?? defaults.maxAttempts,
    jitter: option.jitter ?? defaults.jitter,
  };
  for (const name of ['initialDelayMs', 'maxDelayMs', 'factor', 'maxAttempts', 'jitter'] as const) {
    const value = resolved[name];
    if (!(value >= 0) || (name === 'jitter' && value > 1) || (name === 'factor' && value < 1)) {
      throw new RangeError(`reconnect.${name} must be ${rangeOf(name)}, got ${String(value)}`);
    }
  }
  return resolved;
}

function rangeOf(name: keyof ReconnectOptions): string {
  if (name === 'jitter') return 'between 0 and 1';
  if (name === 'factor') return 'at least 1';
  return 'a number ≥ 0';
}

/**
 * Delay before reconnect attempt `attempt` (0 for the first after a drop): `initialDelayMs × factor^attempt`,
 * capped at `maxDelayMs`, minus up to `jitter` of it. `baseMs`, when given, replaces `initialDelayMs` and
 * is a floor: an SSE server's `retry` field ("The client MUST respect the retry field", 2025-11-25
 * "Resumability and Redelivery") is never undercut, by the cap or by jitter.
 *
 * @example
 * ```ts
 * reconnectDelay({ initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, maxAttempts: 5, jitter: 0 }, 3); // 800
 * ```
 */
export function reconnectDelay(options: ResolvedReconnectOptions, attempt: number, baseMs?: number): number {
  const base = baseMs ?? options.initialDelayMs;
  const ceiling = Math.min(base * options.factor ** Math.max(0, attempt), options.maxDelayMs);
  const jittered = ceiling - (options.jitter === 0 ? 0 : Math.random() * options.jitter * ceiling);
  return baseMs === undefined ? jittered : Math.max(baseMs, jittered);
}
