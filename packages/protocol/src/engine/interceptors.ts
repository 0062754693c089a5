import { ErrorCode, McpError } from '../errors.js';
import type { JSONRPCNotification, JSONRPCRequest } from '../jsonrpc.js';
import type { MessageExtraInfo } from '../transport.js';
import type { HandlerResult } from './handler-types.js';
import type { RequestContext } from './request-context.js';
import type {
  NotificationOptions,
  OutgoingNotification,
  OutgoingRequest,
  RequestOptions,
  ZodSchema,
} from './types.js';

/**
 * One request this side is about to send, as an {@link Interceptor} sees it. Hand a changed copy to
 * `next` to change what goes out (e.g. `{ ...call, request: { ...call.request, params } }`).
 *
 * @example
 * ```ts
 * const addTenant: Interceptor = {
 *   outgoingRequest: (call, next) =>
 *     next({ ...call, request: { ...call.request, params: { ...call.request.params, tenant: 't1' } } }),
 * };
 * ```
 */
export interface OutgoingRequestCall {
  readonly request: OutgoingRequest;
  /** The schema the engine checks the peer's result against (a short-circuit answer may use it too). */
  readonly resultSchema: ZodSchema;
  readonly options: RequestOptions | undefined;
}

/**
 * One notification this side is about to send, as an {@link Interceptor} sees it.
 *
 * @example
 * ```ts
 * const quietProgress: Interceptor = {
 *   // Drop progress notifications: not calling `next` sends nothing.
 *   outgoingNotification: (call, next) =>
 *     call.notification.method === 'notifications/progress' ? Promise.resolve() : next(call),
 * };
 * ```
 */
export interface OutgoingNotificationCall {
  readonly notification: OutgoingNotification;
  readonly options: NotificationOptions | undefined;
}

/**
 * Hooks around the traffic of one `Client`, `Server` or `Protocol` (`use(interceptor)`); every hook is
 * optional. Each is an onion layer: it gets the message and a `next` that runs the layers inside it and
 * finally the engine, and it may
 * - observe (call `next` and look at what it resolves to or throws: the peer's answer, the response),
 * - change (pass a changed message to `next`, or change what `next` resolved to),
 * - short-circuit (resolve without calling `next`: nothing is sent, or no handler runs),
 * - reject (throw, preferably an `McpError`: the caller sees it, or the peer gets it as an error
 *   response with its code).
 *
 * Responses are the resolution of `next`: `outgoingRequest` sees the peer's responses to this side's
 * requests (a JSON-RPC error response as a rejected `McpError`); `incomingRequest` sees the response
 * this side is about to send. The first interceptor `use`d is the outermost layer. With none installed
 * the engine pays nothing: no wrapper, no closure, no extra call per message.
 *
 * @example
 * ```ts
 * client.use({
 *   async outgoingRequest(call, next) {
 *     const started = performance.now();
 *     try {
 *       return await next(call);
 *     } finally {
 *       console.log(call.request.method, performance.now() - started, 'ms');
 *     }
 *   },
 * });
 * ```
 */
export interface Interceptor {
  /** Around each request this side sends; `next` resolves with the peer's (validated) result. */
  outgoingRequest?(
    call: OutgoingRequestCall,
    next: (call: OutgoingRequestCall) => Promise<unknown>,
  ): Promise<unknown>;
  /**
   * Around each request this side receives; `next` runs the handler (or answers -32601 for an unknown
   * method) and resolves with the result this side will answer. A throw becomes the error response.
   */
  incomingRequest?(
    request: JSONRPCRequest,
    ctx: RequestContext,
    next: (request: JSONRPCRequest) => Promise<HandlerResult>,
  ): HandlerResult | Promise<HandlerResult>;
  /** Around each notification this side sends; not calling `next` drops it. */
  outgoingNotification?(
    call: OutgoingNotificationCall,
    next: (call: OutgoingNotificationCall) => Promise<void>,
  ): Promise<void>;
  /**
   * Around each notification this side receives (the engine's own `notifications/progress` and
   * `notifications/cancelled` handling included); not calling `next` drops it.
   */
  incomingNotification?(
    notification: JSONRPCNotification,
    extra: MessageExtraInfo | undefined,
    next: (notification: JSONRPCNotification) => void | Promise<void>,
  ): void | Promise<void>;
}

type Hook = keyof Interceptor;

/**
 * The interceptors installed on an engine, with one array per hook so the engine's check for "any
 * installed" is a property read. Shared by every session of a `Server` (so `use()` reaches the
 * connections already open). Internal to the x-mcp packages; users call `use()`.
 */
export class InterceptorChain {
  #all: Interceptor[] = [];
  /** The interceptors with each hook, outermost first; undefined while none has it. */
  outgoingRequest: Interceptor[] | undefined;
  incomingRequest: Interceptor[] | undefined;
  outgoingNotification: Interceptor[] | undefined;
  incomingNotification: Interceptor[] | undefined;

  /** Adds interceptors (after, so inside, those already installed); returns what removes them again. */
  use(...interceptors: Interceptor[]): () => void {
    this.#all = [...this.#all, ...interceptors];
    this.#index();
    return () => {
      this.#all = this.#all.filter((installed) => !interceptors.includes(installed));
      this.#index();
    };
  }

  #index(): void {
    this.outgoingRequest = this.#with('outgoingRequest');
    this.incomingRequest = this.#with('incomingRequest');
    this.outgoingNotification = this.#with('outgoingNotification');
    this.incomingNotification = this.#with('incomingNotification');
  }

  #with(hook: Hook): Interceptor[] | undefined {
    const found = this.#all.filter((interceptor) => typeof interceptor[hook] === 'function');
    return found.length === 0 ? undefined : found;
  }

  /** Runs `call` through the `outgoingRequest` layers; `send` is the engine underneath. */
  runOutgoingRequest(
    call: OutgoingRequestCall,
    send: (call: OutgoingRequestCall) => Promise<unknown>,
  ): Promise<unknown> {
    const layers = this.outgoingRequest ?? [];
    const step = (index: number, current: OutgoingRequestCall): Promise<unknown> => {
      const layer = layers[index];
      if (layer === undefined) return send(current);
      try {
        return Promise.resolve(
          layer.outgoingRequest?.(current, (next) => step(index + 1, next)) as Promise<unknown>,
        );
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return step(0, call);
  }

  runOutgoingNotification(
    call: OutgoingNotificationCall,
    send: (call: OutgoingNotificationCall) => Promise<void>,
  ): Promise<void> {
    const layers = this.outgoingNotification ?? [];
    const step = (index: number, current: OutgoingNotificationCall): Promise<void> => {
      const layer = layers[index];
      if (layer === undefined) return send(current);
      try {
        return Promise.resolve(layer.outgoingNotification?.(current, (next) => step(index + 1, next)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return step(0, call);
  }

  /**
   * Runs an incoming request through the `incomingRequest` layers; `handle` runs the handler (it may
   * answer synchronously or throw). Returns what the handler runner expects of a handler.
   */
  runIncomingRequest(
    request: JSONRPCRequest,
    ctx: RequestContext,
    handle: (request: JSONRPCRequest) => HandlerResult | Promise<HandlerResult>,
  ): Promise<HandlerResult> {
    const layers = this.incomingRequest ?? [];
    const step = (index: number, current: JSONRPCRequest): Promise<HandlerResult> => {
      const layer = layers[index];
      try {
        if (layer === undefined) return Promise.resolve(handle(current));
        return Promise.resolve(
          layer.incomingRequest?.(current, ctx, (next) => step(index + 1, next)) as HandlerResult,
        );
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return step(0, request);
  }

  runIncomingNotification(
    notification: JSONRPCNotification,
    extra: MessageExtraInfo | undefined,
    deliver: (notification: JSONRPCNotification, extra: MessageExtraInfo | undefined) => void,
  ): void | Promise<void> {
    const layers = this.incomingNotification ?? [];
    const step = (index: number, current: JSONRPCNotification): void | Promise<void> => {
      const layer = layers[index];
      if (layer === undefined) return deliver(current, extra);
      return layer.incomingNotification?.(current, extra, (next) => step(index + 1, next));
    };
    return step(0, notification);
  }
}

/** The error an intercepted request for a method without a handler is answered with (-32601). */
export function methodNotFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}
