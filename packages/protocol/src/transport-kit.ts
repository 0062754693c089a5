/**
 * `@x/protocol/transport`: the kit for writing a transport package, covered by semver. Everything a
 * transport needs besides the `Transport` contract (which is in `@x/protocol/core`) and nothing else:
 * delivering a received message, in-flight tracking, the newline-delimited JSON decoder and encoder,
 * batch screening, the nesting-depth check, the shared reconnect/backoff policy, the rate limiter and
 * the principal model, the limit defaults, `TransportLostError`, and the send scheduler that lets urgent
 * messages overtake queued bulk ones (`SendScheduler`, issue #42). Every first-party transport builds
 * on it; `@x/protocol/internal` is for the client and the server, not for transports.
 *
 * One rule decides what lives here and what in `@x/protocol/http`: what works on any carrier (a
 * socket, a pipe, a `MessagePort`) is here; what reads an HTTP request or response (Host/Origin
 * headers, bodies, forwarded-for headers) is in `./http` only. So the DNS-rebinding guard,
 * `TrustedProxies` and `defaultCallerKey` stay in `./http`, while the `RateLimiter` and `principalOf`
 * (keyed by any string, by `AuthInfo`) are in both: the same classes and functions, not copies.
 *
 * Zod-free: each export comes straight from its module, never through a barrel that holds zod schemas
 * (see core.ts), so a browser bundle of a transport holds no zod.
 *
 * @example
 * ```ts
 * import type { JSONRPCMessage, Transport } from '@x/protocol/core';
 * import { deliverMessage, encodeJsonLine, JsonLineDecoder } from '@x/protocol/transport';
 *
 * const decoder = new JsonLineDecoder({
 *   onmessage: (message) => deliverMessage(transport, message),
 *   onerror: (error) => transport.onerror?.(error),
 * });
 * socket.on('data', (chunk) => decoder.push(chunk));
 * ```
 */
export { CancelHandle } from './cancel-handle.js';
export { ConnectionClosedError, TransportLostError, transportLostResponse } from './errors.js';
export { InFlightMap, InFlightSet } from './in-flight-map.js';
export { DEFAULT_MAX_NESTING_DEPTH, exceedsNestingDepth } from './json-depth.js';
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
export { PRINCIPAL_SUBJECT_KEYS, principalOf, subjectOf } from './http/principal-of.js';
export { DEFAULT_RATE_LIMIT, RateLimiter } from './http/rate-limiter.js';
export type { RateLimiterOptions } from './http/rate-limiter.js';
export { randomUuid } from './random-uuid.js';
export {
  BULK_METHODS,
  defaultMessagePriority,
  PRIORITY_META_KEY,
  PRIORITY_RANK,
  priorityFromMeta,
  URGENT_METHODS,
} from './message-priority.js';
export type { MessagePriority } from './message-priority.js';
export { isThenable } from './thenable.js';
export { deliverMessage } from './transports/deliver-message.js';
export {
  encodeJsonLine,
  JsonLineDecoder,
  MessageTooLargeError,
} from './transports/json-line-decoder.js';
export type {
  JsonLineDecoderOptions,
  JsonLineDecoderSink,
  MessageHead,
} from './transports/json-line-decoder.js';
// The shared limit defaults: one value per concept, on every transport (docs/transports.md "Limits").
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_QUEUED_MESSAGES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
} from './transports/limit-defaults.js';
export { reconnectDelay, resolveReconnect } from './transports/reconnect.js';
export { orderingKeyOf, sendPriorityOf } from './transports/send-order.js';
export { SendQueueFullError, SendScheduler } from './transports/send-scheduler.js';
export type { SendSchedulerOptions } from './transports/send-scheduler.js';
export { renamedOption } from './transports/renamed-option.js';
export type { ReconnectOptions, ResolvedReconnectOptions } from './transports/reconnect.js';
