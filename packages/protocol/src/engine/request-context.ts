import type { z } from 'zod';
import type { JSONRPCRequest, MetaObject, ProgressToken, RequestId } from '../jsonrpc.js';
import { type MessagePriority, PRIORITY_META_KEY } from '../message-priority.js';
import type { AuthInfo, MessageExtraInfo, RequestInfo } from '../transport.js';
import { PROGRESS_NOTIFICATION } from './builtin-params.js';
import { inboundPriority, METHOD_CLASS, type PriorityFunction } from './priority-option.js';
import type {
  NotificationOptions,
  OutgoingNotification,
  OutgoingRequest,
  ProgressUpdate,
  RequestOptions,
  ZodSchema,
} from './types.js';

/**
 * What a request handler knows about the request it serves, and how it talks back on the same stream.
 *
 * @example
 * ```ts
 * protocol.setRequestHandler('tools/call', CallToolParams, async (params, ctx) => {
 *   await ctx.sendProgress({ progress: 1, total: 2, message: 'halfway' });
 *   const answer = await fetch(url, { signal: ctx.signal }); // aborted on notifications/cancelled
 *   return { content: [{ type: 'text', text: await answer.text() }] };
 * });
 * ```
 */
export interface RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  /**
   * Aborted when the peer cancels the request (reason: a DOMException named `AbortError` carrying the
   * peer's reason), when the connection closes (reason: `ConnectionClosedError`), or when the transport
   * reports that the requester went away (its own reason). Once aborted, no response is sent.
   */
  readonly signal: AbortSignal;
  /** The request's `params._meta`, unvalidated. */
  readonly _meta: MetaObject | undefined;
  /** `params._meta.progressToken` when the requester asked for progress. */
  readonly progressToken: ProgressToken | undefined;
  /** The transport's session id when the request arrived. */
  readonly sessionId: string | undefined;
  readonly authInfo: AuthInfo | undefined;
  readonly requestInfo: RequestInfo | undefined;
  /** Everything the transport attached to the message (e.g. `closeSSEStream`). */
  readonly extra: MessageExtraInfo | undefined;
  /** Sends a notification related to this request (`relatedRequestId` is set for the transport). */
  sendNotification(notification: OutgoingNotification): Promise<void>;
  /**
   * Sends a request related to this one. Without an explicit `signal`, it is cancelled together with
   * this request.
   */
  sendRequest<S extends ZodSchema>(
    request: OutgoingRequest,
    resultSchema: S,
    options?: RequestOptions,
  ): Promise<z.output<S>>;
  /** Sends `notifications/progress` for this request; a no-op without a progress token or once aborted. */
  sendProgress(update: ProgressUpdate): Promise<void>;
}

/** The slice of the engine a context sends through. */
export interface RequestContextHost {
  request<S extends ZodSchema>(
    request: OutgoingRequest,
    resultSchema: S,
    options?: RequestOptions,
  ): Promise<z.output<S>>;
  notification(notification: OutgoingNotification, options?: NotificationOptions): Promise<void>;
}

function readMeta(params: Record<string, unknown> | undefined): MetaObject | undefined {
  const meta = params?.['_meta'];
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as MetaObject) : undefined;
}

/**
 * The engine's `RequestContext`: one per incoming request. Methods live on the prototype, so a request
 * costs this one object and no closures. The AbortController behind `signal` is created on first read:
 * on Node an AbortSignal costs more than the rest of a round trip, and most handlers never look at it.
 */
export class HandlerContext implements RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  readonly _meta: MetaObject | undefined;
  readonly progressToken: ProgressToken | undefined;
  readonly sessionId: string | undefined;
  readonly extra: MessageExtraInfo | undefined;
  /** The request's class (issue #42): where it waits for a slot, and its answer's class. */
  readonly priority: MessagePriority;
  #controller: AbortController | undefined;
  #aborted = false;
  #linked = false;
  /** The handler finished: a signal made later is not linked (nothing would unlink it). */
  #finished = false;
  #abortReason: unknown;
  readonly #host: RequestContextHost;

  constructor(
    host: RequestContextHost,
    request: JSONRPCRequest,
    extra: MessageExtraInfo | undefined,
    sessionId: string | undefined,
    priority: PriorityFunction | undefined,
  ) {
    this.#host = host;
    this.requestId = request.id;
    this.method = request.method;
    const meta = readMeta(request.params);
    this._meta = meta;
    const token = meta?.['progressToken'];
    this.progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
    this.sessionId = sessionId;
    this.extra = extra;
    // The default inline (no call on the everyday path): see `inboundPriority` for the rule.
    this.priority =
      priority === undefined && meta?.[PRIORITY_META_KEY] === undefined
        ? (METHOD_CLASS.get(request.method) ?? 'normal')
        : inboundPriority(request, meta, priority);
  }

  /**
   * Created on first read, and linked then to the transport's `extra.signal` (the requester went away):
   * a handler that never looks at its signal costs no AbortController and no listener. Transports that
   * report a lost requester this way also deliver `notifications/cancelled` or close, which abort the
   * context whether or not the signal exists.
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
      else this.#link();
    }
    return this.#controller.signal;
  }

  #link(): void {
    if (this.#finished) return;
    const outer = this.extra?.signal;
    if (outer === undefined) return;
    if (outer.aborted) {
      this.abort(outer.reason);
      return;
    }
    outer.addEventListener('abort', this, { once: true });
    this.#linked = true;
  }

  /**
   * Stops listening to the transport's `extra.signal` (the handler finished). Returns whether the
   * request is still live (not aborted).
   */
  unlink(): boolean {
    this.#finished = true;
    if (this.#linked) {
      this.#linked = false;
      this.extra?.signal?.removeEventListener('abort', this);
    }
    return !this.#aborted;
  }

  /** Same as `signal.aborted`, without creating the signal. */
  get aborted(): boolean {
    return this.#aborted;
  }

  get authInfo(): AuthInfo | undefined {
    return this.extra?.authInfo;
  }

  get requestInfo(): RequestInfo | undefined {
    return this.extra?.requestInfo;
  }

  /** Aborts the handler's signal; later calls are ignored. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }

  /**
   * Listener for the transport's `extra.signal` (the requester went away, e.g. its HTTP stream closed):
   * the context itself is the EventListener object, so wiring it costs no closure.
   */
  handleEvent(): void {
    this.abort(this.extra?.signal?.reason);
  }

  sendNotification(notification: OutgoingNotification): Promise<void> {
    return this.#host.notification(notification, { relatedRequestId: this.requestId });
  }

  sendRequest<S extends ZodSchema>(
    request: OutgoingRequest,
    resultSchema: S,
    options?: RequestOptions,
  ): Promise<z.output<S>> {
    return this.#host.request(request, resultSchema, {
      ...options,
      relatedRequestId: this.requestId,
      signal: options?.signal ?? this.signal,
    });
  }

  sendProgress(update: ProgressUpdate): Promise<void> {
    const progressToken = this.progressToken;
    if (progressToken === undefined || this.#aborted) return Promise.resolve();
    const params: Record<string, unknown> = { progressToken, progress: update.progress };
    if (update.total !== undefined) params['total'] = update.total;
    if (update.message !== undefined) params['message'] = update.message;
    return this.#host.notification(
      { method: PROGRESS_NOTIFICATION, params },
      { relatedRequestId: this.requestId },
    );
  }
}
