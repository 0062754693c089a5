import type { Socket } from 'node:net';
import type { JSONRPCMessage, Transport } from '@x/protocol/core';
import {
  ConnectionClosedError,
  DEFAULT_MAX_LINE_BYTES,
  deliverMessage,
  encodeJsonLine,
  JsonLineDecoder,
  TransportLostError,
} from '@x/protocol/transport';

/**
 * Options of a {@link SocketTransport}.
 *
 * @example
 * ```ts
 * new SocketTransport(socket, { maxMessageBytes: 1024 * 1024 }); // 1 MiB per message
 * ```
 */
export interface SocketTransportOptions {
  /** Bytes one message may hold; a longer line is dropped and reported. Default `DEFAULT_MAX_LINE_BYTES`. */
  maxMessageBytes?: number | undefined;
}

/**
 * MCP over a TCP socket (or any `node:net` stream), one JSON-RPC message per line. Both ends are the
 * same class: connect with `net.connect`, accept with `net.createServer`, wrap each socket.
 *
 * @example
 * ```ts
 * const socket = net.connect(4000, '127.0.0.1');
 * await client.connect(new SocketTransport(socket));
 * ```
 */
export class SocketTransport implements Transport {
  readonly #socket: Socket;
  readonly #decoder: JsonLineDecoder;
  #state: 'new' | 'open' | 'closed' = 'new';
  #closeReason: Error | undefined;

  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  constructor(socket: Socket, options: SocketTransportOptions = {}) {
    this.#socket = socket;
    // The decoder bounds memory (an oversized line is skipped, not buffered) and reports bad lines to
    // onerror without closing: one broken message must not cost the connection.
    this.#decoder = new JsonLineDecoder(
      {
        // deliverMessage keeps a throwing handler from unwinding into the decode loop.
        onmessage: (message) => deliverMessage(this, message),
        onerror: (error) => this.onerror?.(error),
      },
      { maxLineBytes: options.maxMessageBytes ?? DEFAULT_MAX_LINE_BYTES },
    );
  }

  /** Why the connection ended, when the peer or the network ended it (`TransportLostError`). */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('SocketTransport already started');
    this.#state = 'open';
    this.#socket.setNoDelay(true);
    this.#socket.on('data', (chunk: Buffer) => {
      if (this.#state === 'open') this.#decoder.push(chunk);
    });
    this.#socket.on('error', (error) => this.onerror?.(error));
    this.#socket.on('close', () => {
      this.#finish(new TransportLostError('The socket closed', { transport: 'socket' }));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#state === 'closed') return Promise.reject(new ConnectionClosedError());
    let line: string;
    try {
      line = encodeJsonLine(message);
    } catch (error) {
      // A message JSON cannot hold (a BigInt) fails this send only; the connection goes on.
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#socket.write(line, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.#finish(undefined);
    // end(), not destroy(): a graceful FIN. Destroying a socket with unread bytes sends a reset, which
    // the peer would see as a network failure (ECONNRESET) instead of a close.
    this.#socket.end();
  }

  /** Ends the transport once, whichever came first: our close(), the peer's, or a network failure. */
  #finish(reason: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#closeReason = reason;
    this.#decoder.reset();
    this.onclose?.();
  }
}
