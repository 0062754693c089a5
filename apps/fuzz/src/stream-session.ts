import type { RequestId } from '@x/protocol';
import type { FuzzSession } from './fuzz-run.js';
import type { IdSource, Probe } from './hostile-input.js';
import { Ledger } from './ledger.js';

export interface StreamSessionOptions {
  ids: IdSource;
  /** Sends one text; what it resolves with (an HTTP error body, say) counts as received. */
  write(text: string): unknown;
  close(): Promise<void>;
  serverMemory?: () => Promise<number>;
  /** How long everything owed may take to arrive. Default 15 s. */
  deadlineMs?: number;
}

const ping = (id: RequestId) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

/**
 * A fuzz session over a message stream (stdio, WebSocket, an SSE stream): incoming values go to
 * `receive`; `run` sends a sequence then two pings, and waits until every answer owed arrived (the second
 * ping gives a late duplicate the time to show).
 */
export class StreamSession implements FuzzSession {
  readonly ids: IdSource;
  readonly #options: StreamSessionOptions;
  #ledger = new Ledger();
  #wake: (() => void) | undefined;
  #failure: string | undefined;

  constructor(options: StreamSessionOptions) {
    this.ids = options.ids;
    this.#options = options;
    if (options.serverMemory !== undefined) this.serverMemory = options.serverMemory;
  }

  serverMemory?: () => Promise<number>;

  /** A value read off the connection. */
  receive(value: unknown): void {
    this.#ledger.receive(value);
    this.#wake?.();
  }

  /** The connection broke: the current run fails with this. */
  fail(reason: string): void {
    this.#failure ??= reason;
    this.#wake?.();
  }

  async run(probes: readonly Probe[]): Promise<string[]> {
    const ledger = new Ledger();
    this.#ledger = ledger;
    for (const probe of probes) {
      ledger.expect(probe);
      for (const text of probe.texts) this.#accept(await this.#options.write(text));
    }
    for (let round = 0; round < 2 && this.#failure === undefined; round++) {
      const id = this.ids.fresh();
      ledger.expect({
        generator: 'valid-call',
        texts: [],
        answers: [id],
        refused: false,
        method: 'ping',
        toolName: undefined,
      });
      this.#accept(await this.#options.write(ping(id)));
      await this.#settled(ledger);
      // Timed out: the second ping would only wait as long again.
      if (!ledger.settled()) break;
    }
    const problems = ledger.verdict();
    if (this.#failure !== undefined) problems.unshift(this.#failure);
    return problems;
  }

  #accept(values: unknown): void {
    if (Array.isArray(values)) for (const value of values) this.#ledger.receive(value);
  }

  #settled(ledger: Ledger): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.#options.deadlineMs ?? 15_000);
      this.#wake = () => {
        if (ledger.settled() || this.#failure !== undefined) done();
      };
      this.#wake();
    });
  }

  close(): Promise<void> {
    return this.#options.close();
  }
}
