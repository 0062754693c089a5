import { ConnectionClosedError } from '@x/protocol/core';
import { CloseCode } from './constants.js';
import { SendBufferFullError } from './errors.js';
import type { WireSocket, WireSocketEvents } from './wire-socket.js';

export interface BrowserWireSocketOptions {
  maxMessageBytes: number;
  maxBufferedBytes: number;
  closeTimeoutMs: number;
}

const encoder = new TextEncoder();

/**
 * The global `WebSocket` under the MCP framing rules. Browsers give no write callbacks, no pings and no
 * payload cap, so: `send()` settles once the frame is queued (bounded by `bufferedAmount`), liveness is
 * left to the browser, and `maxMessageBytes` is enforced after a message arrived.
 */
export class BrowserWireSocket implements WireSocket {
  readonly #socket: WebSocket;
  readonly #events: WireSocketEvents;
  readonly #options: BrowserWireSocketOptions;
  readonly #closed: Promise<void>;
  #done = false;
  #finish: (code: number, reason: string) => void = () => {};

  constructor(socket: WebSocket, events: WireSocketEvents, options: BrowserWireSocketOptions) {
    this.#socket = socket;
    this.#events = events;
    this.#options = options;
    this.#closed = new Promise((resolve) => {
      this.#finish = (code, reason) => {
        if (this.#done) return;
        this.#done = true;
        events.onclose(code, reason);
        resolve();
      };
    });
    socket.onmessage = (event: MessageEvent) => this.#onmessage(event.data);
    socket.onerror = () => events.onerror(new Error('WebSocket error'));
    socket.onclose = (event: CloseEvent) => this.#finish(event.code, event.reason);
  }

  send(text: string): Promise<void> {
    if (this.#done || this.#socket.readyState !== 1) return Promise.reject(new ConnectionClosedError());
    const buffered = this.#socket.bufferedAmount;
    if (buffered >= this.#options.maxBufferedBytes) {
      return Promise.reject(new SendBufferFullError(this.#options.maxBufferedBytes, buffered));
    }
    this.#socket.send(text);
    return Promise.resolve();
  }

  close(code: number, reason: string): Promise<void> {
    if (!this.#done) {
      try {
        this.#socket.close(code, reason);
      } catch {
        // Browsers let scripts send only 1000 and 3000–4999; 1003/1009 fall back to a normal close.
        this.#socket.close(CloseCode.Normal, reason);
      }
      const timer = setTimeout(
        () => this.#finish(CloseCode.Abnormal, 'Close timed out'),
        this.#options.closeTimeoutMs,
      );
      this.#closed.then(() => clearTimeout(timer));
    }
    return this.#closed;
  }

  #onmessage(data: unknown): void {
    if (typeof data !== 'string') {
      this.close(CloseCode.UnsupportedData, 'Binary frames are not supported').catch(() => {});
      return;
    }
    const max = this.#options.maxMessageBytes;
    // Length in UTF-16 units bounds the UTF-8 size from below, and three times it from above.
    if (data.length > max || (data.length * 3 > max && encoder.encode(data).length > max)) {
      this.close(CloseCode.MessageTooBig, 'Message too big').catch(() => {});
      return;
    }
    this.#events.ontext(data);
  }
}
