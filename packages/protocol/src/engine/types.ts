import type { z } from 'zod';
import type { RequestId } from '../jsonrpc.js';
import type { MessagePriority } from '../message-priority.js';
import type { HeartbeatOptions } from './heartbeat.js';
import type { PriorityFunction } from './priority-option.js';

/**
 * A request as the caller hands it to the engine: the engine adds `jsonrpc` and the id.
 *
 * @example
 * ```ts
 * const request: OutgoingRequest = {
 *   method: 'tools/call',
 *   params: { name: 'echo', arguments: { text: 'hi' } },
 * };
 * const result = await protocol.request(request, CallToolResultSchema);
 * ```
 */
export interface OutgoingRequest {
  method: string;
  params?: Record<string, unknown> | undefined;
}

/**
 * A notification as the caller hands it to the engine: the engine adds `jsonrpc`.
 *
 * @example
 * ```ts
 * const changed: OutgoingNotification = {
 *   method: 'notifications/resources/updated',
 *   params: { uri: 'file:///notes.md' },
 * };
 * await protocol.notification(changed);
 * ```
 */
export interface OutgoingNotification {
  method: string;
  params?: Record<string, unknown> | undefined;
}

/**
 * One `notifications/progress` update (spec: basic/utilities/progress). The engine hands the received
 * params object to the callback as is, so it may carry more fields (`progressToken`, `_meta`).
 *
 * @example
 * ```ts
 * // Inside a request handler: report 3 of 10 steps to a requester that asked for progress.
 * await ctx.sendProgress({ progress: 3, total: 10, message: 'Indexing src/' });
 * ```
 */
export interface ProgressUpdate {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/**
 * Receives the `notifications/progress` updates of one outgoing request (`RequestOptions.onprogress`).
 *
 * @example
 * ```ts
 * const onprogress: ProgressCallback = ({ progress, total, message }) =>
 *   console.log(total ? `${Math.round((100 * progress) / total)}%` : progress, message ?? '');
 * await protocol.request({ method: 'tools/call', params: { name: 'build' } }, CallToolResultSchema, {
 *   onprogress,
 * });
 * ```
 */
export type ProgressCallback = (update: ProgressUpdate) => void;

/**
 * Per-request options of `Protocol.request()`; unset fields fall back to the engine's options. The
 * transport fields (`signal`, `relatedRequestId`, `resumptionToken`, `onresumptiontoken`, `headers`)
 * reach `transport.send()` unchanged.
 *
 * @example
 * ```ts
 * await protocol.request(req, ResultSchema, { timeout: 5_000, maxTotalTimeout: 60_000, onprogress: console.log });
 * ```
 */
export interface RequestOptions {
  /**
   * Aborting cancels the request: the engine sends `notifications/cancelled` (unless the method is
   * uncancellable) and rejects with `signal.reason`. Also handed to the transport's `send()`.
   */
  signal?: AbortSignal | undefined;
  /** Idle timeout in ms; `Infinity` disables it. Default: `ProtocolOptions.timeout` (60 000). */
  timeout?: number | undefined;
  /**
   * Whether a progress notification restarts the idle timeout. Default: engine option (true). While on
   * (and the timeout finite), the request asks for progress even without `onprogress`, unless its method
   * is in `PROGRESS_UNASKED_METHODS` or `params._meta` already has a token of the caller's.
   */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Hard limit in ms that progress cannot extend; `Infinity` disables it. Default: engine (600 000). */
  maxTotalTimeout?: number | undefined;
  /**
   * Asks the peer for progress: the engine sets `_meta.progressToken` to the request id (replacing any
   * token in `params`, on a copy) and calls this for each matching `notifications/progress`.
   */
  onprogress?: ProgressCallback | undefined;
  /**
   * Called synchronously with the id the engine gave this request, before it is sent: for callers that
   * must match later messages to it (e.g. `io.modelcontextprotocol/subscriptionId` of a listen stream).
   */
  onrequestid?: ((id: RequestId) => void) | undefined;
  /** The incoming request this one belongs to, for multi-stream transports. */
  relatedRequestId?: RequestId | undefined;
  /** Passed to the transport: resume an interrupted stream. */
  resumptionToken?: string | undefined;
  /** Passed to the transport: called when the resumption token changes. */
  onresumptiontoken?: ((token: string) => void) | undefined;
  /** Passed to the transport: extra HTTP headers. */
  headers?: Record<string, string> | undefined;
  /**
   * This request's class (issue #42), over the `priority` option: the transport sends it in that class
   * (`TransportSendOptions.priority`), and `params._meta[PRIORITY_META_KEY]` carries it to the peer,
   * which queues the request and sends its answer in it (a peer does not let the key make a request
   * `'urgent'`; `'bulk'` and `'normal'` are honoured).
   */
  priority?: MessagePriority | undefined;
}

/**
 * Per-notification options of `Protocol.notification()`.
 *
 * @example
 * ```ts
 * // Send a log line on the stream of the request being handled (Streamable HTTP routes it there).
 * await protocol.notification(
 *   { method: 'notifications/message', params: { level: 'info', data: 'step 1 done' } },
 *   { relatedRequestId: ctx.requestId },
 * );
 * ```
 */
export interface NotificationOptions {
  /** The incoming request this notification belongs to, for multi-stream transports. */
  relatedRequestId?: RequestId | undefined;
  /** This notification's class for the transport's send queue, over the `priority` option. */
  priority?: MessagePriority | undefined;
}

/**
 * Engine-wide defaults.
 *
 * @example
 * ```ts
 * // A modern-era server: no ping (2026-07-28 removed it), shorter requests.
 * new Protocol({ ping: false, timeout: 30_000, maxTotalTimeout: 120_000 });
 * ```
 */
export interface ProtocolOptions {
  /** Default idle timeout of outgoing requests in ms. Default 60 000 (DESIGN §3). */
  timeout?: number | undefined;
  /** Default for `RequestOptions.resetTimeoutOnProgress`. Default true. */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Default hard maximum of an outgoing request in ms, progress or not. Default 600 000 (10 min). */
  maxTotalTimeout?: number | undefined;
  /** Registers the built-in `ping` handler that answers `{}`. Default true. */
  ping?: boolean | undefined;
  /**
   * Methods that are never cancelled in either direction: no `notifications/cancelled` is sent for them
   * (on abort or timeout) and a received one is ignored. Default `['initialize']` (spec:
   * basic/utilities/cancellation, "The initialize request MUST NOT be cancelled").
   */
  uncancellableMethods?: Iterable<string> | undefined;
  /**
   * The MCP-level heartbeat (`ping` every `intervalMs`, see `HeartbeatOptions`): `true` for
   * `DEFAULT_HEARTBEAT`, an object to tune it. Default off (a `Client` turns it on for network
   * transports).
   */
  heartbeat?: boolean | HeartbeatOptions | undefined;
  /**
   * Moves messages between classes (`MessagePriority`, issue #42); return undefined to keep the
   * default. Inbound it decides where a request waits in the queue (`maxConcurrentRequests`) and the
   * class of its answer; outbound, the class of each request and notification this side sends. The
   * defaults: urgent for `URGENT_METHODS` (cancellation, ping, the handshake, `tasks/cancel`) and every
   * error answer, bulk for `BULK_METHODS` (progress, logging, list changes), normal otherwise, and a
   * `params._meta[PRIORITY_META_KEY]` the message carries (inbound only `'normal'` or `'bulk'`: a peer
   * cannot lift `maxConcurrentRequests` by asking for `'urgent'`; this option can). An answer takes
   * its request's class, an error answer is urgent. See docs/message-ordering.md.
   *
   * @example
   * ```ts
   * new Protocol({
   *   priority: (m) => (m.method === 'tools/call' && m.params?.['name'] === 'export' ? 'bulk' : undefined),
   * });
   * ```
   */
  priority?: PriorityFunction | undefined;
  /**
   * Handlers of normal and bulk requests that run at once; more wait in a queue ordered by class
   * (normal before bulk), then arrival. Urgent requests (`ping`, `initialize`, `tasks/cancel`, and
   * what `priority` makes urgent) never wait and take no slot; a `notifications/cancelled` for a
   * waiting request takes it out of the queue unanswered, and its handler never runs. A slot is freed
   * when a handler returns, cancelled or not. Default `DEFAULT_MAX_CONCURRENT_REQUESTS` (no limit):
   * long-lived requests (`subscriptions/listen`, `tasks/result`) hold a slot each, so pick a number
   * that fits the handlers, or mark those urgent with `priority`. Per engine, i.e. per connection: over
   * Streamable HTTP a 2026-07-28 request or a stateless legacy POST has a connection of its own.
   */
  maxConcurrentRequests?: number | undefined;
  /**
   * Requests that may wait for a slot (`maxConcurrentRequests`); past it a request is answered at once
   * with -32600 naming this option. Default `DEFAULT_MAX_QUEUED_REQUESTS` (1 000).
   */
  maxQueuedRequests?: number | undefined;
}

/**
 * A zod 4 schema; the engine only calls `safeParse`.
 *
 * @example
 * ```ts
 * // Any zod 4 schema works where the engine asks for one (params or result validation).
 * const EchoResult: ZodSchema = z.object({ echo: z.string() });
 * ```
 */
export type ZodSchema = z.ZodType;

/**
 * What a schema parses to (`z.output<S>`), for packages that take a result schema without importing zod.
 *
 * @example
 * ```ts
 * type Roots = SchemaOutput<typeof ListRootsResultSchema>; // { roots: Root[]; … }
 * ```
 */
export type SchemaOutput<S extends ZodSchema> = z.output<S>;
