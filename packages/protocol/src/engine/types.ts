import type { z } from 'zod';
import type { MetaObject, RequestId } from '../jsonrpc.js';
import type { RequestContext } from './request-context.js';

/** A request as the caller hands it to the engine: the engine adds `jsonrpc` and the id. */
export interface OutgoingRequest {
  method: string;
  params?: Record<string, unknown> | undefined;
}

/** A notification as the caller hands it to the engine: the engine adds `jsonrpc`. */
export interface OutgoingNotification {
  method: string;
  params?: Record<string, unknown> | undefined;
}

/**
 * One `notifications/progress` update (spec: basic/utilities/progress). The engine hands the received
 * params object to the callback as is, so it may carry more fields (`progressToken`, `_meta`).
 */
export interface ProgressUpdate {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

export type ProgressCallback = (update: ProgressUpdate) => void;

/** Per-request options of `Protocol.request()`; unset fields fall back to the engine's options. */
export interface RequestOptions {
  /**
   * Aborting cancels the request: the engine sends `notifications/cancelled` (unless the method is
   * uncancellable) and rejects with `signal.reason`. Also handed to the transport's `send()`.
   */
  signal?: AbortSignal | undefined;
  /** Idle timeout in ms; `Infinity` disables it. Default: `ProtocolOptions.timeout` (60 000). */
  timeout?: number | undefined;
  /** Whether a progress notification restarts the idle timeout. Default: engine option (true). */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Hard limit in ms that progress cannot extend; `Infinity` disables it. Default: engine (600 000). */
  maxTotalTimeout?: number | undefined;
  /** Asks the peer for progress: the engine adds `_meta.progressToken` (the request id). */
  onprogress?: ProgressCallback | undefined;
  /** The incoming request this one belongs to, for multi-stream transports. */
  relatedRequestId?: RequestId | undefined;
  /** Passed to the transport: resume an interrupted stream. */
  resumptionToken?: string | undefined;
  /** Passed to the transport: called when the resumption token changes. */
  onresumptiontoken?: ((token: string) => void) | undefined;
  /** Passed to the transport: extra HTTP headers. */
  headers?: Record<string, string> | undefined;
}

export interface NotificationOptions {
  /** The incoming request this notification belongs to, for multi-stream transports. */
  relatedRequestId?: RequestId | undefined;
}

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
}

/** What a request handler resolves to: the JSON-RPC `result` object. */
export type HandlerResult = object;

export type RequestHandler<P = Record<string, unknown>, R extends HandlerResult = HandlerResult> = (
  params: P,
  ctx: RequestContext,
) => R | Promise<R>;

export type NotificationHandler<P = Record<string, unknown>> = (
  params: P,
  notification: { method: string; _meta: MetaObject | undefined },
) => void | Promise<void>;

/** Answers requests for methods that have no handler; `params` is unvalidated. */
export type FallbackRequestHandler = (
  method: string,
  params: Record<string, unknown>,
  ctx: RequestContext,
) => HandlerResult | Promise<HandlerResult>;

/** Receives notifications for methods that have no handler; `params` is unvalidated. */
export type FallbackNotificationHandler = (
  method: string,
  params: Record<string, unknown>,
) => void | Promise<void>;

/** A zod 4 schema; the engine only calls `safeParse`. */
export type Schema = z.ZodType;
