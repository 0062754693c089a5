import type { JSONRPCMessage } from '../jsonrpc.js';
import { isThenable } from '../thenable.js';
import type { Transport } from '../transport.js';
import { preview } from './describe-difference.js';
import type { ResolvedTransportContractOptions } from './contract-types.js';
import type { ContractScenarioError } from './contract-errors.js';

export type Side = 'client' | 'server';

/**
 * What a probe needs from its scenario (`ScenarioContext` implements it). Declared here, not imported,
 * so the probe stays a leaf below the scenario that owns it.
 */
export interface ProbeScenario {
  readonly options: ResolvedTransportContractOptions;
  readonly closeExpected: boolean;
  readonly errorsAllowed: boolean;
  expectClose(): void;
  fail(message: string, cause?: unknown): ContractScenarioError;
  waitUntil(describe: () => string, isDone: () => boolean): Promise<void>;
  notify(): void;
}

/**
 * One end of the pair under observation. It owns the end's `onmessage`/`onerror`/`onclose` and checks
 * the rules that hold in every scenario: no message after close, `onclose` at most once and only when
 * something closed the pair, no `onerror` unless the scenario provokes errors.
 */
export class TransportProbe {
  readonly side: Side;
  readonly transport: Transport;
  readonly received: JSONRPCMessage[] = [];
  readonly errors: unknown[] = [];
  /** Scenario hook called for every delivered message (e.g. an echo responder). */
  listener: ((message: JSONRPCMessage) => void) | undefined;
  #context: ProbeScenario;
  #closeCount = 0;
  #closeRequested = false;

  constructor(context: ProbeScenario, side: Side, transport: Transport) {
    this.#context = context;
    this.side = side;
    this.transport = transport;
    transport.onmessage = (message) => this.#onMessage(message);
    transport.onerror = (error) => this.#onError(error);
    transport.onclose = () => this.#onClose();
  }

  get closeCount(): number {
    return this.#closeCount;
  }

  /** `close()` was called on this end or its `onclose` fired: it must not deliver anything any more. */
  get closed(): boolean {
    return this.#closeRequested || this.#closeCount > 0;
  }

  /** Sends a message that must go through; a rejection or a synchronous throw fails the scenario. */
  send(message: JSONRPCMessage): Promise<void> {
    let result: unknown;
    try {
      result = this.transport.send(message);
    } catch (error) {
      return Promise.reject(
        this.#context.fail(`${this.side}.send() threw synchronously: ${errorText(error)}`, error),
      );
    }
    return Promise.resolve(result).then(
      () => undefined,
      (error: unknown) => {
        throw this.#context.fail(`${this.side}.send() rejected: ${errorText(error)}`, error);
      },
    );
  }

  /**
   * Sends a message whose outcome the scenario inspects. Whatever that outcome, `send()` has to return a
   * promise (not throw synchronously) that settles within `sendSettleMs`; otherwise the scenario fails.
   */
  async sendAndObserve(message: JSONRPCMessage, label: string): Promise<SendOutcome> {
    let result: unknown;
    try {
      result = this.transport.send(message);
    } catch (error) {
      throw this.#context.fail(
        `${label} threw synchronously; it must return a rejected promise instead: ${errorText(error)}`,
        error,
      );
    }
    if (!isThenable(result)) throw this.#context.fail(`${label} did not return a promise`);
    const outcome = await settleWithin(result, this.#context.options.sendSettleMs);
    if (outcome.state === 'pending') {
      throw this.#context.fail(
        `${label} did not settle within ${this.#context.options.sendSettleMs} ms; it must not hang`,
      );
    }
    return outcome;
  }

  /** Sends a message that must be refused (`situation` says why, e.g. "after close()"). */
  async expectSendRejects(message: JSONRPCMessage, situation: string): Promise<void> {
    const label = `${this.side}.send() ${situation}`;
    const outcome = await this.sendAndObserve(message, label);
    if (outcome.state === 'resolved') throw this.#context.fail(`${label} resolved; it must reject`);
  }

  /** Sends without caring about the outcome (bursts racing a close); never leaves a rejection unhandled. */
  sendQuietly(message: JSONRPCMessage): void {
    try {
      Promise.resolve(this.transport.send(message)).catch(() => undefined);
    } catch {
      // Judged by `send-after-close`; here only the delivery side matters.
    }
  }

  /** Closes this end; `close()` must resolve (a rejection or a synchronous throw fails the scenario). */
  async close(): Promise<void> {
    this.#closeRequested = true;
    this.#context.expectClose();
    let result: unknown;
    try {
      result = this.transport.close();
    } catch (error) {
      throw this.#context.fail(`${this.side}.close() threw synchronously: ${errorText(error)}`, error);
    }
    try {
      await result;
    } catch (error) {
      throw this.#context.fail(`${this.side}.close() rejected: ${errorText(error)}`, error);
    }
  }

  waitForMessages(count: number): Promise<void> {
    return this.#context.waitUntil(
      () => `${this.side} to receive ${count} messages (got ${this.received.length})`,
      () => this.received.length >= count,
    );
  }

  waitForClose(): Promise<void> {
    return this.#context.waitUntil(
      () => `${this.side} onclose to fire`,
      () => this.#closeCount > 0,
    );
  }

  #onMessage(message: JSONRPCMessage): void {
    if (this.closed) {
      const when = this.#closeCount > 0 ? 'its onclose fired' : 'close() was called on it';
      this.#context.fail(`${this.side} delivered a message after ${when}: ${preview(message)}`);
      return;
    }
    this.received.push(message);
    try {
      this.listener?.(message);
    } catch (error) {
      this.#context.fail(`${this.side} scenario handler failed: ${errorText(error)}`, error);
    }
    this.#context.notify();
  }

  #onError(error: unknown): void {
    this.errors.push(error);
    if (!(error instanceof Error)) {
      this.#context.fail(`${this.side} onerror was called with a non-Error: ${preview(error)}`);
    } else if (!this.#context.errorsAllowed) {
      this.#context.fail(`${this.side} onerror fired during a clean exchange: ${errorText(error)}`, error);
    }
    this.#context.notify();
  }

  #onClose(): void {
    this.#closeCount += 1;
    if (this.#closeCount > 1) {
      this.#context.fail(`${this.side} onclose fired ${this.#closeCount} times; it must fire exactly once`);
    } else if (!this.#context.closeExpected) {
      this.#context.fail(`${this.side} onclose fired although neither end was closed`);
    }
    this.#context.notify();
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : preview(error);
}

export type SendOutcome = { state: 'resolved' } | { state: 'rejected'; reason: unknown };
type Outcome = SendOutcome | { state: 'pending' };

/** Settles with the promise's outcome, or `pending` after `ms`; never leaves a timer behind. */
export function settleWithin(promise: PromiseLike<unknown>, ms: number): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    const timer = setTimeout(() => resolve({ state: 'pending' }), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve({ state: 'resolved' });
      },
      (reason: unknown) => {
        clearTimeout(timer);
        resolve({ state: 'rejected', reason });
      },
    );
  });
}
