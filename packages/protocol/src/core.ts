/**
 * `@x/protocol/core`: everything of `@x/protocol` except the zod schemas (the `…Schema` values, the
 * method → schema tables and `orInputRequired`): the engine, errors, versions, the `Transport`
 * contract, constants and every message type. Nothing here imports zod at run time, so a browser
 * bundle of `@x/client` and a transport (which import only this entry and `./internal`) holds no zod;
 * the client's deferred schemas load the zod schemas on demand (issue 30). The root entry is this
 * plus the schemas.
 */
export {
  ConnectionClosedError,
  ErrorCode,
  McpError,
  RequestTimeoutError,
  TransportLostError,
  transportLostResponse,
} from './errors.js';
export {
  type InsufficientScopeData,
  insufficientScopeError,
  isInsufficientScope,
  missingScopes,
} from './insufficient-scope.js';

export {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCResultResponse,
  JSONRPC_VERSION,
  parseJsonText,
  parseMessage,
  serializeMessage,
  validateMessage,
} from './jsonrpc.js';
export { DEFAULT_MAX_NESTING_DEPTH, exceedsNestingDepth } from './json-depth.js';
export {
  BULK_METHODS,
  defaultMessagePriority,
  PRIORITY_META_KEY,
  PRIORITY_RANK,
  priorityFromMeta,
  URGENT_METHODS,
} from './message-priority.js';
export type { MessagePriority } from './message-priority.js';
export type {
  JSONRPCErrorObject,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  JSONRPCResultResponse,
  MetaObject,
  ParseOptions,
  ProgressToken,
  RequestId,
} from './jsonrpc.js';
export type {
  AuthInfo,
  IsomorphicHeaders,
  MessageExtraInfo,
  RequestInfo,
  Transport,
  TransportSendOptions,
} from './transport.js';
export { SENT } from './transport.js';
export {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  eraOf,
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './versions.js';
export { xMcpHeaderProblem } from './x-mcp-header.js';
export {
  acceptsBatches,
  BATCH_PROTOCOL_VERSION,
  BatchResponses,
  DEFAULT_MAX_BATCH_SIZE,
  duplicateRequestError,
  parseMessageOrBatch,
  readBatch,
} from './jsonrpc-batch.js';
export type {
  BatchReading,
  BatchResponsesOptions,
  ReadBatchOptions,
  ReceiveBatchOptions,
} from './jsonrpc-batch.js';
export type { Era, LegacyProtocolVersion, ModernProtocolVersion, ProtocolVersion } from './versions.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  encodeJsonLine,
  JsonLineDecoder,
  MessageTooLargeError,
} from './transports/json-line-decoder.js';
export type {
  JsonLineDecoderOptions,
  JsonLineDecoderSink,
  MessageHead,
} from './transports/json-line-decoder.js';
export { InMemoryTransport } from './transports/in-memory-transport.js';
export { reconnectDelay, resolveReconnect } from './transports/reconnect.js';
export type { ReconnectOptions, ResolvedReconnectOptions } from './transports/reconnect.js';

// Ready interceptors (`use(...)` on Client, Server, Protocol)
export {
  DEFAULT_METRICS_MAX_SAMPLES,
  DEFAULT_METRICS_MIN_SAMPLES,
  DEFAULT_METRICS_WINDOW_MS,
  roundTripMetrics,
} from './interceptors/round-trip-metrics.js';
export type {
  RoundTripAlert,
  RoundTripMetrics,
  RoundTripMetricsOptions,
  RoundTripStats,
} from './interceptors/round-trip-metrics.js';
export { DEFAULT_SECRET_KEYS, REDACTED, redact } from './interceptors/redact.js';
export { trafficLog } from './interceptors/traffic-log.js';
export type { TrafficLogEntry, TrafficLogOptions } from './interceptors/traffic-log.js';

// Protocol engine
export {
  DEFAULT_HEARTBEAT,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_MAX_QUEUED_REQUESTS,
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_UNCANCELLABLE_METHODS,
  PROGRESS_UNASKED_METHODS,
  HeartbeatTimeoutError,
  Protocol,
} from './engine/index.js';
export type {
  HeartbeatOptions,
  Interceptor,
  OutgoingNotificationCall,
  OutgoingRequestCall,
  PriorityContext,
  PriorityFunction,
  ResolvedHeartbeat,
  FallbackNotificationHandler,
  FallbackRequestHandler,
  HandlerResult,
  NotificationHandler,
  NotificationOptions,
  OutgoingNotification,
  OutgoingRequest,
  ProgressCallback,
  ProgressUpdate,
  ProtocolOptions,
  RequestContext,
  RequestHandler,
  RequestOptions,
  SchemaOutput,
  ZodSchema,
} from './engine/index.js';

// Constants and types of every revision's messages (their zod schemas are in the root entry)

export {
  CACHE_SCOPES,
  LOGGING_LEVELS,
  MCP_META_PREFIX,
  MetaKey,
  ResultType,
  TASK_STATUSES,
} from './schemas/meta-keys.js';
// Generated from the schema barrel (`pnpm gen`): every public message type, `CallToolResult`, ….
export type * from './schemas/generated/message-types.js';

// JSON Schema validation (tool input/output schemas) and the Standard Schema interface

export type { StandardSchemaV1 } from './validation/standard-schema.js';

// Experimental tasks of 2025-11-25: the receiver machinery both sides share, and the requestor's poller
export { InMemoryTaskStore } from './tasks/in-memory-task-store.js';
export {
  DEFAULT_MAX_TASK_TTL_MS,
  DEFAULT_MAX_TASKS,
  DEFAULT_MAX_TASKS_PER_OWNER,
  DEFAULT_TASK_PAGE_SIZE,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_TTL_MS,
} from './tasks/task-defaults.js';
export { isTerminalTaskStatus } from './tasks/task-status.js';
export type { StoredTask, TaskOutcome, TaskPage, TaskRequest, TaskStore } from './tasks/index.js';
// Tasks on 2026-07-28: the `io.modelcontextprotocol/tasks` extension (SEP-2663)
export { fromDetailedTask, TASKS_EXTENSION, toDetailedTask } from './tasks/detailed-task.js';
export type { CreateTaskHandle, DetailedTask } from './tasks/index.js';

// Scale-out (DESIGN §9): the state several server processes share, with one-process defaults
export {
  boundEventStore,
  boundMessageBus,
  boundSessionStore,
  boundSubscriptionFanOut,
  boundTaskStore,
  DEFAULT_MAX_EVENTS,
  DEFAULT_MAX_EVENTS_PER_STREAM,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  InMemoryEventStore,
  InMemoryMessageBus,
  InMemorySessionStore,
  InMemorySubscriptionFanOut,
  StoreDeadline,
  StoreFailedError,
  StoreTimeoutError,
} from './scale-out/index.js';
export type {
  ChangeNotice,
  EventStore,
  InMemoryEventStoreOptions,
  InMemorySessionStoreOptions,
  MessageBus,
  PublishedEvent,
  SessionRecord,
  SessionStore,
  StoreDeadlineOptions,
  SubscriptionFanOut,
  Unsubscribe,
} from './scale-out/index.js';
