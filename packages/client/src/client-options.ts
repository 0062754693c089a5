import type {
  ClientCapabilities,
  HeartbeatOptions,
  LoggingLevel,
  PriorityFunction,
  RequestOptions,
  Transport,
} from '@x/protocol/core';
import type { EraCache } from './connect/era-cache.js';
import type { VersionSelection } from './connect/negotiate.js';
import type { ClientTaskOptions } from './legacy/client-tasks.js';
import type { RetryOptions } from './retry/retry-options.js';
import type { JsonSchemaCompiler } from './tool-registry.js';

/**
 * How long the auto-mode `server/discover` probe waits before the server counts as legacy
 * (`probeTimeout`): 10 s, long enough for a cold server to answer, short enough that a legacy server
 * that never answers the unknown method does not stall `connect()` for the whole request timeout.
 *
 * @example
 * ```ts
 * const client = new Client(info, { probeTimeout: DEFAULT_PROBE_TIMEOUT_MS / 2 });
 * ```
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

/**
 * Pages the `iterate…()` and `list…All()` walkers follow before they stop with an error (`maxPages`): 100,
 * far more than any honest list needs, a bound on a server whose cursors never end.
 *
 * @example
 * ```ts
 * const client = new Client(info, { maxPages: 10 * DEFAULT_MAX_PAGES });
 * ```
 */
export const DEFAULT_MAX_PAGES = 100;

/** Shared with the gRPC native binding: one value for one limit. */
export { DEFAULT_MAX_INPUT_ROUNDS } from '@x/protocol/core';

/**
 * Options of `new Client(info, options)`.
 *
 * @example
 * ```ts
 * const client = new Client(
 *   { name: 'my-app', version: '1.0.0' },
 *   { protocolVersion: 'auto', timeout: 30_000, autoRefresh: { tools: true }, onwarning: log.warn },
 * );
 * ```
 */
export interface ClientOptions {
  /** Declared on top of what the registered handlers imply (e.g. `experimental`, `extensions`). */
  capabilities?: ClientCapabilities | undefined;
  /**
   * `'auto'` (default): probe `server/discover`, fall back to `initialize`. `'legacy'`/`'modern'`: one
   * era only. A version string pins that exact version.
   */
  protocolVersion?: VersionSelection | undefined;
  /** Remembers each target's era across connects (keyed by `ConnectOptions.cacheKey`). Default: in memory. */
  eraCache?: EraCache | undefined;
  /** How long the auto-mode `server/discover` probe waits before the server counts as legacy. Default {@link DEFAULT_PROBE_TIMEOUT_MS} (10 s). */
  probeTimeout?: number | undefined;
  /** Default idle timeout of requests in ms. Default 60 000. */
  timeout?: number | undefined;
  /**
   * Whether progress restarts the idle timeout. Default true. While on, every request with a finite
   * timeout asks for progress (`_meta.progressToken`) even without an `onprogress` callback, so a
   * server that reports keeps a long call alive up to `maxTotalTimeout`; `ping`, `initialize`,
   * `server/discover`, `logging/setLevel` and task polls never ask (`PROGRESS_UNASKED_METHODS`). Off:
   * only requests with `onprogress` carry a token.
   */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Hard maximum of a request in ms, progress or not. Default 600 000. */
  maxTotalTimeout?: number | undefined;
  /**
   * The MCP-level heartbeat (`HeartbeatOptions`): a probe every `intervalMs`; `maxMisses` unanswered in a
   * row (each waiting `timeoutMs`) close the connection with a `HeartbeatTimeoutError`. The probe is
   * `ping` on legacy connections and `server/discover` on 2026-07-28 ones over stdio or WebSocket; a
   * 2026-07-28 connection over Streamable HTTP has no connection to probe (see the transport's
   * `idleTimeoutMs` for its listen streams). Default: `DEFAULT_HEARTBEAT` (2 min, 30 s, 2 misses) on
   * network transports (`Transport.network`), off on stdio. `false` turns it off, `true` on.
   */
  heartbeat?: boolean | HeartbeatOptions | undefined;
  /**
   * Moves messages between classes (`MessagePriority`: urgent, normal, bulk; issue #42): the class
   * of each request and notification the client sends (transports send urgent ones first), and of the
   * server's requests (sampling, elicitation, roots) it handles. Return undefined for the default. A
   * single call can choose with its request option `priority`. See `ProtocolOptions.priority`.
   */
  priority?: PriorityFunction | undefined;
  /**
   * Handlers of the server's requests (sampling, elicitation, roots…) that run at once; more wait,
   * normal before bulk. Default `DEFAULT_MAX_CONCURRENT_REQUESTS` (no limit). See
   * `ProtocolOptions.maxConcurrentRequests`.
   */
  maxConcurrentRequests?: number | undefined;
  /** Server requests that may wait for a slot. Default `DEFAULT_MAX_QUEUED_REQUESTS` (1 000). */
  maxQueuedRequests?: number | undefined;
  /** Page cap of the `iterate…()` walkers. Default {@link DEFAULT_MAX_PAGES} (100). */
  maxPages?: number | undefined;
  /** Retries a 2026-07-28 request may take to satisfy `input_required` answers. Default {@link DEFAULT_MAX_INPUT_ROUNDS} (8). */
  maxInputRounds?: number | undefined;
  /**
   * Re-fetch the full list when the server says it changed, and hand it to the `…ListChanged` listeners
   * (and `cachedTools`/`cachedPrompts`/`cachedResources`). Default false.
   */
  autoRefresh?: boolean | { tools?: boolean; prompts?: boolean; resources?: boolean } | undefined;
  /** Serve fresh cacheable 2026-07-28 results (`ttlMs`) from memory. Default true. */
  cache?: boolean | undefined;
  /** Minimum server log level on 2026-07-28 (`_meta` `io.modelcontextprotocol/logLevel`). Default: none. */
  logLevel?: LoggingLevel | undefined;
  /** Compiles tool output schemas. Default: `compileJsonSchema` from `@x/protocol`. */
  jsonSchemaCompiler?: JsonSchemaCompiler | undefined;
  /**
   * Experimental tasks as a receiver (2025-11-25 only): accept task-augmented sampling and elicitation
   * requests from the server and answer `tasks/*` about them. Default: off.
   */
  tasks?: ClientTaskOptions | undefined;
  /**
   * Retry requests that failed for a transient reason (see `RetryOptions`), but only those safe to
   * repeat: reads, lists, `ping`, completions, and `tools/call` of tools listed with `readOnlyHint` or
   * `idempotentHint`. `true`: `RETRY_DEFAULTS` (3 retries, 200 ms doubling to 10 s, full jitter).
   * Default: off (a request's own `retry` still applies).
   */
  retry?: boolean | RetryOptions | undefined;
  /** Non-fatal oddities (e.g. a tool dropped for an invalid `x-mcp-header`). Default: `console.warn`. */
  onwarning?: ((message: string) => void) | undefined;
}

/**
 * Options of `client.connect(transport, options)`.
 *
 * @example
 * ```ts
 * await client.connect(new StreamableHttpClientTransport(url), {
 *   fallback: () => new SseClientTransport(url),
 *   cacheKey: url,
 * });
 * ```
 */
export interface ConnectOptions {
  /**
   * Builds a second transport, used when the first fails the handshake as `shouldFallBackToSse` (from
   * `@x/protocol/http`) says: HTTP 400, 404 or 405 without a modern server's error, e.g. Streamable
   * HTTP → legacy HTTP+SSE. Other failures (401, 403, 406, 429, …) reject `connect()`.
   */
  fallback?: (() => Transport | Promise<Transport>) | undefined;
  /** Identifies the server (its URL, its command line) for the era cache. Without it nothing is cached. */
  cacheKey?: string | undefined;
}

/**
 * Per-request options: the engine's (timeout, progress, signal…) plus the result cache switch.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const result = await client.callTool(
 *   { name: 'index-repo', arguments: { path: '.' } },
 *   {
 *     timeout: 120_000,
 *     signal: controller.signal,
 *     onprogress: ({ progress, total }) => console.log(progress, total),
 *   },
 * );
 * const tools = await client.listTools(undefined, { fresh: true }); // bypass the 2026-07-28 result cache
 * ```
 */
export interface ClientRequestOptions extends RequestOptions {
  /** Skip a cached result and fetch anew (the answer is cached again). */
  fresh?: boolean | undefined;
  /**
   * This request's retry policy: `false` never repeats it; `true` or an object repeats it on transient
   * failures whatever its method (the caller vouches it is safe), with the client's policy (or
   * `RETRY_DEFAULTS`) overridden by the object's fields. Default: the client's `retry`.
   */
  retry?: boolean | RetryOptions | undefined;
}
