import type { JSONRPCMessage, McpError, RequestId, Transport } from '@x/protocol/core';
import { bridgeLimitError, peerLostError } from './bridge-errors.js';

/** One end of a pipe as a direction sees it. */
export interface PipeEnd {
  readonly transport: Transport;
  readonly side: 'upstream' | 'downstream';
  readonly name: string;
}

export interface DirectionLimits {
  readonly maxQueuedMessages: number;
  readonly maxInFlightRequests: number;
  readonly report: (error: Error) => void;
}

/**
 * Messages from one transport to the other: held until the receiving end has started, counted while
 * its `send` is unsettled (`maxQueuedMessages`), and the requests among them tracked until answered
 * (`maxInFlightRequests`), so that losing the receiving end answers each of them instead of hanging.
 */
export class PipeDirection {
  readonly #from: PipeEnd;
  readonly #to: PipeEnd;
  readonly #limits: DirectionLimits;
  /** Requests forwarded to `#to` and not yet answered. */
  readonly #pending = new Set<RequestId>();
  /** Messages waiting for `#to` to start. */
  #held: JSONRPCMessage[] | undefined = [];
  #queued = 0;
  #targetLost = false;

  constructor(from: PipeEnd, to: PipeEnd, limits: DirectionLimits) {
    this.#from = from;
    this.#to = to;
    this.#limits = limits;
  }

  /** The receiving end has started: what was held goes out, in order. */
  open(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const message of held) this.#send(message);
  }

  /** A message `#from` sent. Requests past a bound are answered here and not forwarded. */
  forward(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message) {
      const refusal = this.#refusal();
      if (refusal !== undefined) {
        this.#answer(message.id, refusal);
        return;
      }
      this.#pending.add(message.id);
    } else if ('method' in message) {
      if (this.#targetLost) return;
      if (this.#queued >= this.#limits.maxQueuedMessages) {
        this.#limits.report(
          bridgeLimitError(this.#to.side, this.#to.name, 'maxQueuedMessages', this.#limits.maxQueuedMessages),
        );
        return;
      }
    }
    // Responses are bounded already: by the other direction's `maxInFlightRequests`.
    this.#queued += 1;
    if (this.#held !== undefined) this.#held.push(message);
    else this.#send(message);
  }

  /** `#to` answered request `id` (the answer travels the other way). */
  settle(id: RequestId): void {
    this.#pending.delete(id);
  }

  /** `#to` is gone: every request it still owed is answered with the typed error naming it. */
  async targetLost(): Promise<void> {
    this.#targetLost = true;
    const lost = peerLostError(this.#to.side, this.#to.name);
    const answers = [...this.#pending].map((id) => this.#answer(id, lost));
    this.#pending.clear();
    this.#held = [];
    await Promise.all(answers);
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  #refusal(): McpError | undefined {
    if (this.#targetLost) return peerLostError(this.#to.side, this.#to.name);
    const { maxInFlightRequests, maxQueuedMessages } = this.#limits;
    if (this.#pending.size >= maxInFlightRequests)
      return bridgeLimitError(this.#to.side, this.#to.name, 'maxInFlightRequests', maxInFlightRequests);
    if (this.#queued >= maxQueuedMessages)
      return bridgeLimitError(this.#to.side, this.#to.name, 'maxQueuedMessages', maxQueuedMessages);
    return undefined;
  }

  #send(message: JSONRPCMessage): void {
    this.#to.transport.send(message).then(
      () => {
        this.#queued -= 1;
      },
      (error: unknown) => {
        this.#queued -= 1;
        this.#limits.report(error instanceof Error ? error : new Error(String(error)));
        if ('method' in message && 'id' in message && this.#pending.delete(message.id)) {
          void this.#answer(message.id, peerLostError(this.#to.side, this.#to.name));
        }
      },
    );
  }

  /** Answers a request of `#from` itself (it never reached `#to`, or `#to` is gone). */
  #answer(id: RequestId, error: McpError): Promise<void> {
    return this.#from.transport
      .send({ jsonrpc: '2.0', id, error: error.toJSON() } as JSONRPCMessage)
      .catch((failure: unknown) => {
        this.#limits.report(failure instanceof Error ? failure : new Error(String(failure)));
      });
  }
}
