import { ConnectionClosedError, type JSONRPCMessage, type TransportSendOptions } from '@x/protocol/core';
import { SendScheduler } from '@x/protocol/transport';
import { CloseCode } from './constants.js';
import { SendBufferFullError, SendStalledError } from './errors.js';
import type { WireSocket, WireSocketEvents } from './wire-socket.js';

export interface BrowserWireSocketOptions {
  maxMessageBytes: number;
  maxBufferedBytes: number;
  maxQueuedBytes: number;
  /** 0 disables the stall check. */
  sendStallTimeoutMs: number;
  closeTimeoutMs: number;
}

const encoder = new TextEncoder();

/**
 * How often the socket is looked at while messages wait for it to drain: a browser `WebSocket` has no
 * drain event, so `bufferedAmount` is polled, and only while something waits.
 */
const DRAIN_POLL_MS = 10;

interface WaitingSend {
  text: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The global `WebSocket` under the MCP framing rules. Browsers give no write callbacks, no drain event,
 * no pings and no payload cap, so: `send()` settles once the frame is handed to the socket; a frame that
 * finds `maxBufferedBytes` in it waits (urgent first, never past a frame of its own request: a
 * `SendScheduler`, issue #42), handed over as a timer polling `bufferedAmount` (only
 * while something waits) sees the socket drain; liveness is left to the browser; `maxMessageBytes` is
 * enforced after a message arrived. A server that stops reading (`maxQueuedBytes`,
 * `sendStallTimeoutMs`) ends the connection as on Node, with 1000 where the browser forbids 1008.
 */
export class BrowserWireSocket implements WireSocket {
  readonly #socket: WebSocket;
  readonly #events: WireSocketEvents;
  readonly #options: BrowserWireSocketOptions;
  readonly #closed: Promise<void>;
  #done = false;
  #finish: (code: number, reason: string) => void = () => {};
  /** Frames waiting for the socket to drain; made on first use. */
  #waiting: SendScheduler<WaitingSend> | undefined;
  #poll: ReturnType<typeof setTimeout> | undefined;
  /** `bufferedAmount` at the last poll that saw the socket drain, and when that was. */
  #lastBuffered = 0;
  #lastProgressAt = 0;
  #failure: Error | undefined;

  constructor(socket: WebSocket, events: WireSocketEvents, options: BrowserWireSocketOptions) {
    this.#socket = socket;
    this.#events = events;
    this.#options = options;
    this.#closed = new Promise((resolve) => {
      this.#finish = (code, reason) => {
        if (this.#done) return;
        this.#done = true;
        this.#failWaiting(new ConnectionClosedError(`WebSocket closed (${code})`));
        events.onclose(code, reason);
        resolve();
      };
    });
    socket.onmessage = (event: MessageEvent) => this.#onmessage(event.data);
    socket.onerror = () => events.onerror(new Error('WebSocket error'));
    socket.onclose = (event: CloseEvent) => this.#finish(event.code, event.reason);
  }

  send(
    text: string,
    message?: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#done || this.#socket.readyState !== 1) return Promise.reject(new ConnectionClosedError());
    const idle = this.#waiting === undefined || this.#waiting.size === 0;
    if (idle && this.#socket.bufferedAmount < this.#options.maxBufferedBytes) {
      this.#socket.send(text);
      return Promise.resolve();
    }
    const max = this.#options.maxQueuedBytes;
    this.#waiting ??= new SendScheduler({
      maxQueuedBytes: max,
      // Bounded by bytes only: 10 000 small progress frames may wait.
      maxQueuedMessages: Number.POSITIVE_INFINITY,
    });
    const waiting = this.#waiting;
    let refused: number | undefined;
    const sent = new Promise<void>((resolve, reject) => {
      refused = waiting.pushMessage({ text, resolve, reject }, utf8Length(text), message, options)?.wouldHold;
    });
    if (refused !== undefined) {
      const error = new SendBufferFullError(max, refused);
      this.#stall(error, `Send queue over maxQueuedBytes (${max})`);
      return Promise.reject(error);
    }
    if (idle) {
      this.#lastBuffered = this.#socket.bufferedAmount;
      this.#lastProgressAt = Date.now();
      this.#poll = setTimeout(this.#pump, DRAIN_POLL_MS);
    }
    return sent;
  }

  /** Hands waiting frames to the socket while it has room; gives the peer up when nothing drains. */
  readonly #pump = (): void => {
    this.#poll = undefined;
    const waiting = this.#waiting;
    if (waiting === undefined || waiting.size === 0 || this.#done) return;
    const socket = this.#socket;
    if (socket.readyState !== 1) {
      // Closing: a browser would discard these frames without a word.
      this.#failWaiting(new ConnectionClosedError('WebSocket is closing; message not sent'));
      return;
    }
    const max = this.#options.maxBufferedBytes;
    let buffered = socket.bufferedAmount;
    const now = Date.now();
    if (buffered < this.#lastBuffered) this.#lastProgressAt = now;
    while (waiting.size > 0 && buffered < max) {
      const entry = waiting.shift() as WaitingSend;
      socket.send(entry.text);
      entry.resolve();
      buffered = socket.bufferedAmount;
      this.#lastProgressAt = now;
    }
    this.#lastBuffered = buffered;
    if (waiting.size === 0) return;
    const timeoutMs = this.#options.sendStallTimeoutMs;
    if (timeoutMs > 0 && now - this.#lastProgressAt >= timeoutMs) {
      this.#stall(
        new SendStalledError(timeoutMs, buffered),
        `Nothing sent for sendStallTimeoutMs (${timeoutMs})`,
      );
      return;
    }
    this.#poll = setTimeout(this.#pump, DRAIN_POLL_MS);
  };

  /** The server is not reading: fail what waits, report it, end the connection. */
  #stall(error: SendBufferFullError | SendStalledError, reason: string): void {
    this.#failure = error;
    this.#failWaiting(error);
    this.#events.onerror(error);
    this.close(CloseCode.PolicyViolation, reason).catch(() => {});
  }

  #failWaiting(error: Error): void {
    if (this.#poll !== undefined) clearTimeout(this.#poll);
    this.#poll = undefined;
    const waiting = this.#waiting?.clear();
    if (waiting !== undefined) for (const entry of waiting) entry.reject(error);
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

/** UTF-8 bytes of `text` (what `bufferedAmount` counts), without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length) {
      // A surrogate pair: 4 bytes for its 2 units.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
