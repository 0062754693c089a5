import { ConnectionClosedError } from '../errors.js';
import type { JSONRPCMessage } from '../jsonrpc.js';
import { type MessageExtraInfo, SENT, type Transport, type TransportSendOptions } from '../transport.js';

/** Inbox slots (two per message) kept between drains; a longer inbox is let go after its drain. */
const MAX_KEPT_INBOX = 512;

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
  /**
   * Messages sent to this end since its last drain, as message, extra, message, extra… in the first
   * `#inboxLength` slots. One microtask drains all of them: no closure or promise per message.
   */
  #inbox: unknown[] = [];
  #inboxLength = 0;

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
    const at = peer.#inboxLength;
    peer.#inbox[at] = message;
    peer.#inbox[at + 1] = extra;
    peer.#inboxLength = at + 2;
    // The first message since the last drain schedules one. A promise reaction is a plain microtask,
    // where Node's `queueMicrotask` wraps every callback in an `AsyncResource` (1-3 us per call before
    // the JIT warms up).
    if (at === 0) void SENT.then(peer.#drain);
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

  /**
   * Delivers the inbox in order, including what the peer sends while it runs (a peer's `send` called
   * from inside this end's `onmessage`). A throwing `onmessage` does not cost the messages after it:
   * the first exception is rethrown at the end, rejecting this microtask's chain (an unhandled
   * rejection, as loud as the exception).
   */
  readonly #drain = (): void => {
    const inbox = this.#inbox;
    let failure: { error: unknown } | undefined;
    for (let i = 0; i < this.#inboxLength; i += 2) {
      const message = inbox[i] as JSONRPCMessage;
      const extra = inbox[i + 1] as MessageExtraInfo | undefined;
      // Each slot is let go as soon as it is read.
      inbox[i] = undefined;
      inbox[i + 1] = undefined;
      try {
        this.#deliver(message, extra);
      } catch (error) {
        failure ??= { error };
      }
    }
    // A burst's long array is not kept for later.
    if (this.#inboxLength > MAX_KEPT_INBOX) this.#inbox = [];
    this.#inboxLength = 0;
    if (failure !== undefined) throw failure.error;
  };

  #deliver(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (this.#closed) return;
    this.onmessage?.(message, extra);
  }
}
