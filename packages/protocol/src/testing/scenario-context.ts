import { ContractScenarioError } from './contract-errors.js';
import type { ResolvedTransportContractOptions, TransportPair } from './contract-types.js';
import { TransportProbe } from './transport-probe.js';

interface Waiter {
  describe(): string;
  isDone(): boolean;
  resolve(): void;
  reject(error: ContractScenarioError): void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The state of one scenario run: its two probed ends, its progress (so a timeout can say what it was
 * waiting for), and its first failure. Transport callbacks must never throw into the transport, so a
 * violation seen inside one is recorded with `fail()` and surfaces by rejecting every pending wait and
 * the run's `failed` promise: a broken transport fails fast instead of running into the timeout.
 */
export class ScenarioContext {
  readonly scenario: string;
  readonly options: ResolvedTransportContractOptions;
  /** Settles (rejecting) on the first failure; the runner races the scenario body against it. */
  readonly failed: Promise<never>;
  readonly #controller = new AbortController();
  readonly #waiters = new Set<Waiter>();
  #rejectFailed!: (error: ContractScenarioError) => void;
  #failure: ContractScenarioError | undefined;
  #step = 'building the transport pair';
  #finished = false;
  #closeExpected = false;
  #errorsAllowed = false;
  #client: TransportProbe | undefined;
  #server: TransportProbe | undefined;

  constructor(scenario: string, options: ResolvedTransportContractOptions) {
    this.scenario = scenario;
    this.options = options;
    this.failed = new Promise<never>((_, reject) => {
      this.#rejectFailed = reject;
    });
    // The runner always races against `failed`; this only keeps an unraced copy from being "unhandled".
    this.failed.catch(() => undefined);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get client(): TransportProbe {
    if (this.#client === undefined) throw new Error('transport pair not attached yet');
    return this.#client;
  }

  get server(): TransportProbe {
    if (this.#server === undefined) throw new Error('transport pair not attached yet');
    return this.#server;
  }

  get closeExpected(): boolean {
    return this.#closeExpected;
  }

  get errorsAllowed(): boolean {
    return this.#errorsAllowed;
  }

  get failure(): ContractScenarioError | undefined {
    return this.#failure;
  }

  attach(pair: TransportPair): void {
    this.#client = new TransportProbe(this, 'client', pair.client);
    this.#server = new TransportProbe(this, 'server', pair.server);
  }

  /** Names the current phase; a timeout reports it. */
  step(label: string): void {
    this.#step = label;
  }

  /** From here on an `onclose` on either end is expected rather than a failure. */
  expectClose(): void {
    this.#closeExpected = true;
  }

  /** From here on `onerror` is allowed (the scenario provokes errors on purpose). */
  allowErrors(): void {
    this.#errorsAllowed = true;
  }

  /**
   * Records the scenario's first failure and wakes everything waiting on it. Safe to call from inside a
   * transport callback: it never throws. Returns the failure that will be reported.
   */
  fail(message: string, cause?: unknown): ContractScenarioError {
    if (this.#failure !== undefined || this.#finished) {
      return this.#failure ?? new ContractScenarioError(this.scenario, message);
    }
    const failure = new ContractScenarioError(
      this.scenario,
      message,
      cause === undefined ? undefined : { cause },
    );
    this.#failure = failure;
    this.#controller.abort(failure);
    this.#rejectFailed(failure);
    for (const waiter of this.#waiters) {
      if (waiter.timer !== undefined) clearTimeout(waiter.timer);
      waiter.reject(failure);
    }
    this.#waiters.clear();
    return failure;
  }

  /** Fails with a timeout message naming the step and every condition still awaited. */
  failTimeout(): void {
    const pending = [...this.#waiters].filter((waiter) => waiter.timer === undefined);
    const waiting = pending.map((waiter) => waiter.describe());
    const detail = waiting.length > 0 ? `while waiting for ${waiting.join(' and ')}` : '';
    this.fail(`timed out after ${this.options.timeoutMs} ms during "${this.#step}" ${detail}`.trimEnd());
  }

  /** Stops reporting: cleanup may close ends and fire callbacks without failing the scenario. */
  finish(): void {
    this.#finished = true;
    for (const waiter of this.#waiters) if (waiter.timer !== undefined) clearTimeout(waiter.timer);
    this.#waiters.clear();
  }

  /** Resolves once `isDone()` holds; re-checked after every transport event. */
  waitUntil(describe: () => string, isDone: () => boolean): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (isDone()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#waiters.add({ describe, isDone, resolve, reject });
    });
  }

  /** Waits `ms`, but rejects at once if the scenario fails meanwhile. */
  sleep(ms: number): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        describe: () => `${ms} ms to pass`,
        isDone: () => false,
        resolve,
        reject,
      };
      waiter.timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        resolve();
      }, ms);
      this.#waiters.add(waiter);
    });
  }

  /** Gives a late second `onclose`, a late message or a late error the chance to show up. */
  settle(): Promise<void> {
    return this.sleep(this.options.settleMs);
  }

  /** Called by the probes after every transport event. */
  notify(): void {
    for (const waiter of this.#waiters) {
      if (waiter.timer === undefined && waiter.isDone()) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
