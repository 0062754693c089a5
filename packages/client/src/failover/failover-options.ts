import type { ReconnectOptions, ResolvedReconnectOptions, Transport } from '@x/protocol/core';

/**
 * One transport a `FailoverTransport` may use: a name for events and errors, and a factory that builds
 * a fresh, unstarted transport each time it is called (a transport is started once).
 *
 * @example
 * ```ts
 * const ws: FailoverTarget = { name: 'websocket', create: () => new WebSocketClientTransport(wsUrl) };
 * ```
 */
export interface FailoverTarget {
  readonly name: string;
  readonly create: () => Transport | Promise<Transport>;
}

/**
 * What a `FailoverTransport` reports through `onevent`:
 * - `switched`: the active transport failed (`reason`) and `to` took over from `from`;
 * - `probing`: a background attempt (`attempt`, from 1) to start the preferred `to` again;
 * - `restored`: `to`, preferred over `from`, is active again (switched between requests).
 *
 * @example
 * ```ts
 * const onevent = (event: FailoverEvent) =>
 *   console.warn(`${event.type}: ${event.from} → ${event.to}${event.reason ? ` (${event.reason.message})` : ''}`);
 * ```
 */
export interface FailoverEvent {
  readonly type: 'switched' | 'probing' | 'restored';
  readonly from: string;
  readonly to: string;
  /** Why the active transport was given up (`switched`), or why the last probe failed (`probing`). */
  readonly reason?: Error | undefined;
  /** Which probe this is, counting from 1 after each switch (`probing`). */
  readonly attempt?: number | undefined;
}

/**
 * Options of `new FailoverTransport(options)`.
 *
 * @example
 * ```ts
 * const transport = new FailoverTransport({
 *   transports: [
 *     { name: 'websocket', create: () => new WebSocketClientTransport(wsUrl) },
 *     { name: 'streamable-http', create: () => new StreamableHttpClientTransport(httpUrl) },
 *   ],
 *   probe: { initialDelayMs: 2_000, maxDelayMs: 60_000 },
 *   onevent: (event) => console.warn(event.type, event.from, '→', event.to),
 * });
 * ```
 */
export interface FailoverTransportOptions {
  /** In order of preference; at least one. */
  readonly transports: readonly FailoverTarget[];
  /**
   * How the preferred transport is probed in the background while a later one is active: `true`
   * (default) = `FAILOVER_PROBE_DEFAULTS`, an object overrides fields, `false` never switches back.
   * A probe is the transport's `start()` (a WebSocket opens its socket).
   */
  readonly probe?: boolean | ReconnectOptions | undefined;
  /** Switches, probes and restorations, with the reason. */
  readonly onevent?: ((event: FailoverEvent) => void) | undefined;
}

/**
 * Probing defaults: 1 s doubling up to 30 s, jitter 0.5, never giving up.
 *
 * @example
 * ```ts
 * new FailoverTransport({ transports, probe: { ...FAILOVER_PROBE_DEFAULTS, maxDelayMs: 5_000 } });
 * ```
 */
export const FAILOVER_PROBE_DEFAULTS: ResolvedReconnectOptions = Object.freeze({
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 2,
  maxAttempts: Number.POSITIVE_INFINITY,
  jitter: 0.5,
});
