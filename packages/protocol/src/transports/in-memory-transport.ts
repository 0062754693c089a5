import { ConnectionClosedError } from '../errors.js';
import type { JSONRPCMessage } from '../jsonrpc.js';
import { type MessageExtraInfo, SENT, type Transport, type TransportSendOptions } from '../transport.js';

/**
 * One end of an in-process transport pair. Messages are delivered asynchronously (a microtask later) and
 * in order, as objects: no serialization, so it measures the engine rather than JSON. The receiver may
 * get the very objects the sender built (a tool's result object can reach the caller unchanged), so
 * neither side should mutate a message, or a value it put in one, after sending it.
 *
 * Messages sent before the peer calls `start()` are queued and delivered on start.
 *
 * @example
 * ```ts
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * await client.connect(clientSide);
 * ```
 */
export class InMemoryTransport implements Transport {
  #peer: InMemoryTransport | undefined;
  #started = false;
  #closed = false;
  #queue: Array<{ message: JSONRPCMessage; extra: MessageExtraInfo | undefined }> = [];

  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  sessionId?: string | undefined;

  /** Extra info attached to every message this end receives (e.g. a fake `authInfo` in tests). */
  extra: MessageExtraInfo | undefined;

  static createLinkedPair(): [InMemoryTransport, InMemoryTransport] {
    const a = new InMemoryTransport();
    const b = new InMemoryTransport();
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('InMemoryTransport already started');
    this.#started = true;
    const queued = this.#queue;
    this.#queue = [];
    for (const { message, extra } of queued) this.#deliver(message, extra);
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    const peer = this.#peer;
    if (this.#closed || peer === undefined || peer.#closed)
      return Promise.reject(new ConnectionClosedError());
    const extra = peer.extra;
    if (!peer.#started) {
      peer.#queue.push({ message, extra });
      return SENT;
    }
    // A promise reaction is a plain microtask, where Node's `queueMicrotask` wraps every callback in an
    // `AsyncResource` (1-3 us per message before the JIT warms up). A throwing `onmessage` rejects this
    // chain: an unhandled rejection, as loud as the exception.
    void SENT.then(() => peer.#deliver(message, extra));
    return SENT;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    const peer = this.#peer;
    this.#peer = undefined;
    try {
      this.onclose?.();
    } finally {
      // A throwing onclose must not leave the other end open forever.
      if (peer !== undefined && !peer.#closed) await peer.close();
    }
  }

  #deliver(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (this.#closed) return;
    this.onmessage?.(message, extra);
  }
}
