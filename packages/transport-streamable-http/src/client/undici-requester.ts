import type { Dispatcher } from 'undici';
import type { CancelHandle as Exchange } from '@x/protocol/transport';
import type { HttpReply, HttpRequester } from './requester.js';
import { leasePool, type PoolLease } from './shared-pools.js';
import { UndiciReply } from './undici-reply.js';

/** An {@link HttpRequester} on undici's dispatcher; `close()` gives back its share of the pool. */
export interface UndiciRequester {
  requester: HttpRequester;
  close(): Promise<void>;
}

/** Turns dispatcher callbacks into the reply promise; cancels the request when its exchange aborts. */
class ReplyHandler implements Dispatcher.DispatchHandler {
  #exchange: Exchange;
  #resolve: (reply: HttpReply) => void;
  #reject: (error: unknown) => void;
  #reply: UndiciReply | undefined;

  constructor(exchange: Exchange, resolve: (reply: HttpReply) => void, reject: (error: unknown) => void) {
    this.#exchange = exchange;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#exchange.onAbort((reason) => controller.abort(reason as Error));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx informational responses precede the real one.
    if (statusCode < 200) return;
    this.#reply = new UndiciReply(statusCode, headers, controller);
    this.#resolve(this.#reply);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#reply?.push(chunk);
  }

  onResponseEnd(): void {
    this.#reply?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.#reply === undefined) this.#reject(error);
    else this.#reply.fail(error);
  }
}

/**
 * The Node default: undici's dispatcher with a handler of our own skips both the WHATWG `fetch`
 * machinery and `request`'s Node stream per body, and needs no `AbortSignal` per request. Connections
 * come from a keep-alive pool shared by the transports that talk to the same origin (see
 * {@link leasePool}).
 */
export function createUndiciRequester(): UndiciRequester {
  let lease: PoolLease | undefined;
  let leasedOrigin: string | undefined;
  let closed = false;
  let lastUrl: URL | undefined;
  let path = '/';
  let origin = '';
  const requester: HttpRequester = (req) =>
    new Promise<HttpReply>((resolve, reject) => {
      if (req.exchange.aborted) return reject(req.exchange.reason);
      if (closed) return reject(new Error('The HTTP client of this transport is closed'));
      if (req.url !== lastUrl) {
        lastUrl = req.url;
        path = `${req.url.pathname}${req.url.search}`;
        origin = req.url.origin;
      }
      if (lease === undefined || leasedOrigin !== origin) {
        // A transport talks to one endpoint; were it ever another origin, the old share is given back.
        lease?.release();
        lease = leasePool(origin);
        leasedOrigin = origin;
      }
      const options: Dispatcher.DispatchOptions = { path, method: req.method, headers: req.headers };
      if (req.body !== undefined) options.body = req.body;
      lease.pool.dispatch(options, new ReplyHandler(req.exchange, resolve, reject));
    });
  const close = async (): Promise<void> => {
    closed = true;
    lease?.release();
    lease = undefined;
  };
  return { requester, close };
}
