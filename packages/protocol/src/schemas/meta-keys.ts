/**
 * Reserved names of the protocol: `_meta` keys, result types, logging levels and the other small
 * string sets that several schemas and the engine share.
 */

/**
 * Reserved `_meta` keys (2026-07-28 `basic/index` "Reserved keys"; `progressToken` is in every
 * revision, `related-task` belongs to the experimental tasks of 2025-11-25).
 *
 * @example
 * ```ts
 * const meta = { [MetaKey.ProtocolVersion]: '2026-07-28', [MetaKey.ClientCapabilities]: {} };
 * ```
 */
export const MetaKey = {
  ProgressToken: 'progressToken',
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
  RelatedTask: 'io.modelcontextprotocol/related-task',
  TraceParent: 'traceparent',
  TraceState: 'tracestate',
  Baggage: 'baggage',
} as const;

export type MetaKey = (typeof MetaKey)[keyof typeof MetaKey];

/**
 * `resultType` values of 2026-07-28 (`basic/index`, "Result types"). Results from earlier revisions
 * carry no `resultType`; the spec says to read an absent one as `complete`.
 *
 * @example
 * ```ts
 * // A result without `resultType` (every revision before 2026-07-28) counts as complete.
 * const needsInput = (result: Result) =>
 *   (result.resultType ?? ResultType.Complete) === ResultType.InputRequired;
 * needsInput({ resultType: 'input_required' }); // true
 * needsInput({}); // false
 * ```
 */
export const ResultType = {
  Complete: 'complete',
  InputRequired: 'input_required',
  /** A task handle instead of the result (the `io.modelcontextprotocol/tasks` extension, SEP-2663). */
  Task: 'task',
} as const;

export type ResultTypeValue = (typeof ResultType)[keyof typeof ResultType];

/**
 * Syslog severities used by `notifications/message` and `logging/setLevel` (RFC 5424), least severe first.
 *
 * @example
 * ```ts
 * // Whether an entry is severe enough for a client that asked for `min` and above.
 * const passes = (level: LoggingLevel, min: LoggingLevel) =>
 *   LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(min);
 * passes('error', 'warning'); // true
 * passes('debug', 'info'); // false
 * ```
 */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/**
 * `cacheScope` values of a cacheable 2026-07-28 result, as in HTTP `Cache-Control`.
 *
 * @example
 * ```ts
 * // Validate a cache scope read from configuration.
 * const scope = process.env['CACHE_SCOPE'] ?? 'private';
 * if (!(CACHE_SCOPES as readonly string[]).includes(scope))
 *   throw new Error(`CACHE_SCOPE must be one of: ${CACHE_SCOPES.join(', ')}`);
 * ```
 */
export const CACHE_SCOPES = ['private', 'public'] as const;

/** `status` values of an experimental 2025-11-25 task. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

/** Prefix reserved for MCP's own `_meta` keys and extension identifiers. */
export const MCP_META_PREFIX = 'io.modelcontextprotocol/' as const;
