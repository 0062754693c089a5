import {
  ConnectionClosedError,
  type JSONRPCMessage,
  type MessageExtraInfo,
  SENT,
  type TransportSendOptions,
} from '@x/protocol/core';
import { deliverMessage } from '@x/protocol/transport';

/**
 * What every server end shares: inbound messages wait until `start()` (so `onsession` may connect
 * asynchronously), and `close()` is idempotent with exactly one `onclose`.
 */
export abstract class ServerTransportBase {
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  #started = false;
  #closed = false;
  #inbox: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> = [];

  // Not `async`: a modern request connects a transport per POST, and an async start() is a promise and a
  // microtask more on each (delivery cannot throw: `deliverMessage` reports handler errors).
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error('Transport already started'));
    this.#started = true;
    const inbox = this.#inbox;
    this.#inbox = [];
    for (const [message, extra] of inbox) this.#dispatch(message, extra);
    return SENT;
  }

  get closed(): boolean {
    return this.#closed;
  }

  abstract send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#inbox = [];
    this.teardown();
    this.onclose?.();
  }

  /** Releases streams and timers; runs once, before `onclose`. */
  protected abstract teardown(): void;

  protected deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.#closed) return;
    if (!this.#started) this.#inbox.push([message, extra]);
    else this.#dispatch(message, extra);
  }

  protected assertOpen(): void {
    if (this.#closed) throw new ConnectionClosedError('Transport is closed');
  }

  protected reportError(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }

  #dispatch(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    deliverMessage(this, message, extra);
  }
}
