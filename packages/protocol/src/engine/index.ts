export {
  CANCELLED_NOTIFICATION,
  PROGRESS_NOTIFICATION,
  readCancelledParams,
  readProgressParams,
} from './builtin-params.js';
export type { CancelledParams, ProgressParams } from './builtin-params.js';
export {
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_MAX_QUEUED_REQUESTS,
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_UNCANCELLABLE_METHODS,
  PROGRESS_UNASKED_METHODS,
} from './defaults.js';
export { formatIssues } from './format-issues.js';
export { parseParams } from './handlers.js';
export type { ParamsParser } from './handlers.js';
export { Protocol } from './protocol.js';
export {
  DEFAULT_HEARTBEAT,
  HeartbeatTimeoutError,
  resolveHeartbeat,
} from './heartbeat.js';
export type { HeartbeatOptions, ResolvedHeartbeat } from './heartbeat.js';
export { InterceptorChain } from './interceptors.js';
export type { Interceptor, OutgoingNotificationCall, OutgoingRequestCall } from './interceptors.js';
export { resolveRequestLimits } from './inbound-queue.js';
export type { RequestLimits } from './inbound-queue.js';
export type { PriorityContext, PriorityFunction } from './priority-option.js';
export type { RequestContext } from './request-context.js';
export type {
  FallbackNotificationHandler,
  FallbackRequestHandler,
  HandlerResult,
  NotificationHandler,
  RequestHandler,
} from './handler-types.js';
export type {
  NotificationOptions,
  OutgoingNotification,
  OutgoingRequest,
  ProgressCallback,
  ProgressUpdate,
  ProtocolOptions,
  RequestOptions,
  SchemaOutput,
  ZodSchema,
} from './types.js';
