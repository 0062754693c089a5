import { describe, expect, it } from 'vitest';
import { ConnectionClosedError, type JSONRPCMessage, type Transport } from '@x/protocol';
import {
  ContractScenarioError,
  runTransportContract,
  type TransportContractOptions,
  TransportContractError,
  type TransportPairFactory,
  transportContractScenarios,
} from '@x/protocol/testing';

/** One deliberate defect each; a transport with none is correct (the first test proves it). */
interface Faults {
  dropEvery?: number;
  swapEvery?: number;
  queueLimit?: number;
  doubleOnclose?: boolean;
  closeNotIdempotent?: boolean;
  hangClose?: boolean;
  noClosePropagation?: boolean;
  sendAfterClose?: 'hang' | 'throw' | 'resolve';
  deliverAfterClose?: boolean;
  truncateStringsOver?: number;
  normalizeUnicode?: boolean;
  onSerializationError?: 'close' | 'swallow' | 'throw';
  spuriousError?: boolean;
}

/**
 * A transport pair that really serializes (JSON text between the ends, delivered on microtasks, like a
 * wire) and carries exactly the defects it is told to have.
 */
class FaultyTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  peer: FaultyTransport | undefined;
  readonly #faults: Faults;
  #closed = false;
  #sent = 0;
  #held: string | undefined;
  #inFlight = 0;

  constructor(faults: Faults) {
    this.#faults = faults;
  }

  static pair(faults: Faults): TransportPairFactory {
    return async () => {
      const client = new FaultyTransport(faults);
      const server = new FaultyTransport(faults);
      client.peer = server;
      server.peer = client;
      return { client, server };
    };
  }

  async start(): Promise<void> {}

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) {
      if (this.#faults.sendAfterClose === 'throw') throw new ConnectionClosedError();
      if (this.#faults.sendAfterClose === 'hang') return new Promise(() => undefined);
      if (this.#faults.sendAfterClose === 'resolve') return Promise.resolve();
      return Promise.reject(new ConnectionClosedError());
    }
    return this.#write(message);
  }

  async #write(message: JSONRPCMessage): Promise<void> {
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      if (this.#faults.onSerializationError === 'close') await this.close();
      if (this.#faults.onSerializationError === 'swallow') return;
      if (this.#faults.onSerializationError === 'throw') {
        queueMicrotask(() => {
          throw error;
        });
        return;
      }
      throw error;
    }
    if (this.#faults.spuriousError) this.onerror?.(new Error('spurious'));
    if (this.#faults.normalizeUnicode) text = text.normalize('NFC');
    this.#sent += 1;
    const peer = this.peer;
    if (peer === undefined) return;
    if (this.#faults.dropEvery !== undefined && this.#sent % this.#faults.dropEvery === 0) return;
    if (this.#faults.queueLimit !== undefined && peer.#inFlight >= this.#faults.queueLimit) return;
    if (this.#faults.swapEvery !== undefined && this.#sent % this.#faults.swapEvery === 0) {
      this.#held = text;
      return;
    }
    peer.#receiveLater(text);
    if (this.#held !== undefined) {
      peer.#receiveLater(this.#held);
      this.#held = undefined;
    }
  }

  #receiveLater(text: string): void {
    this.#inFlight += 1;
    queueMicrotask(() => {
      this.#inFlight -= 1;
      if (this.#closed && !this.#faults.deliverAfterClose) return;
      const limit = this.#faults.truncateStringsOver;
      const message = JSON.parse(text, (_key, value: unknown) =>
        limit !== undefined && typeof value === 'string' && value.length > limit
          ? value.slice(0, limit)
          : value,
      ) as JSONRPCMessage;
      this.onmessage?.(message);
    });
  }

  async close(): Promise<void> {
    if (this.#faults.hangClose) return new Promise(() => undefined);
    if (this.#closed && !this.#faults.closeNotIdempotent) return;
    this.#closed = true;
    this.onclose?.();
    // Like a stream's 'close' event arriving after close() already reported it.
    if (this.#faults.doubleOnclose) setTimeout(() => this.onclose?.(), 1);
    const peer = this.peer;
    if (peer !== undefined && !peer.#closed && !this.#faults.noClosePropagation) await peer.close();
  }
}

// Small numbers and short timeouts: every defect here must be caught fast, not by a 10 s timeout.
const fast: TransportContractOptions = {
  timeoutMs: 1_000,
  sendSettleMs: 200,
  messageCount: 300,
  concurrentRequests: 300,
  largeMessageBytes: 256 * 1024,
};

// For runs whose verdict must not depend on machine load: no defect under test relies on a timeout.
const patient: TransportContractOptions = { ...fast, timeoutMs: 10_000 };

function scenario(name: string) {
  const found = transportContractScenarios.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no scenario ${name}`);
  return found;
}

async function failureOf(name: string, faults: Faults): Promise<ContractScenarioError> {
  const error = await scenario(name)
    .run(FaultyTransport.pair(faults), fast)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error, `${name} should fail for ${JSON.stringify(faults)}`).toBeInstanceOf(ContractScenarioError);
  const failure = error as ContractScenarioError;
  expect(failure.scenario).toBe(name);
  return failure;
}

async function failedScenarios(faults: Faults): Promise<string[]> {
  const error = await runTransportContract(FaultyTransport.pair(faults), patient).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TransportContractError);
  return (error as TransportContractError).failedScenarios;
}

describe('the contract kit catches broken transports', () => {
  it('passes the faulty transport when it has no fault (the baseline the cases below break)', async () => {
    const result = await runTransportContract(FaultyTransport.pair({}), patient);
    expect(result.passed).toHaveLength(transportContractScenarios.length);
  });

  it('ordering: a transport that drops every 100th message', async () => {
    const failure = await failureOf('ordering', { dropEvery: 100 });
    expect(failure.message).toMatch(/received seq 100 where seq 99 was due \(lost or reordered\)/);
  });

  it('ordering: a transport that swaps two messages now and then', async () => {
    const failure = await failureOf('ordering', { swapEvery: 50 });
    expect(failure.message).toMatch(/seq 50 where seq 49 was due/);
  });

  it('concurrent-requests: a transport that silently drops messages when 256 are in flight', async () => {
    const failure = await failureOf('concurrent-requests', { queueLimit: 256 });
    expect(failure.message).toMatch(/timed out .*client replies \(\d+\/300\)/);
  });

  it('large-message: a transport that truncates long strings', async () => {
    const failure = await failureOf('large-message', { truncateStringsOver: 64 * 1024 });
    expect(failure.message).toMatch(
      /arrived changed: \$\[0\]\["params"\]\["data"\]: strings differ at UTF-16 index 65536/,
    );
  });

  it('unicode: a transport that normalises text (combining marks are not NFC)', async () => {
    const failure = await failureOf('unicode', { normalizeUnicode: true });
    expect(failure.message).toMatch(/strings differ/);
  });

  it('close-from-client/-server: a transport whose onclose fires twice', async () => {
    for (const name of ['close-from-client', 'close-from-server']) {
      const failure = await failureOf(name, { doubleOnclose: true });
      expect(failure.message).toMatch(/onclose fired 2 times; it must fire exactly once/);
    }
  });

  it('close-idempotent: a close() that fires onclose on every call', async () => {
    const failure = await failureOf('close-idempotent', { closeNotIdempotent: true });
    expect(failure.message).toMatch(/client onclose fired 2 times/);
  });

  it('close-from-client: a close that never reaches the other end', async () => {
    const failure = await failureOf('close-from-client', { noClosePropagation: true });
    expect(failure.message).toMatch(/timed out after 1000 ms .*server onclose to fire/);
  });

  it('close scenarios fail fast, naming the step, when close() hangs', async () => {
    const started = Date.now();
    const failure = await failureOf('close-idempotent', { hangClose: true });
    expect(failure.message).toMatch(/timed out after 1000 ms during "closing the client end/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('send-after-close: a send on a closed transport that hangs, throws synchronously, or resolves', async () => {
    expect((await failureOf('send-after-close', { sendAfterClose: 'hang' })).message).toMatch(
      /client\.send\(\) of a notification after close\(\) did not settle within 200 ms; it must not hang/,
    );
    expect((await failureOf('send-after-close', { sendAfterClose: 'throw' })).message).toMatch(
      /threw synchronously; it must return a rejected promise/,
    );
    expect((await failureOf('send-after-close', { sendAfterClose: 'resolve' })).message).toMatch(
      /resolved; it must reject/,
    );
  });

  it('no-delivery-after-close: a transport that keeps delivering after close()', async () => {
    const failure = await failureOf('no-delivery-after-close', { deliverAfterClose: true });
    // Either end may be the first to break the rule: the closing client, or the server after its onclose.
    expect(failure.message).toMatch(
      /(client|server) delivered a message after (close\(\) was called on it|its onclose fired)/,
    );
  });

  it('non-serializable-message: a transport that closes itself, or swallows the message silently', async () => {
    expect((await failureOf('non-serializable-message', { onSerializationError: 'close' })).message).toMatch(
      /onclose fired although neither end was closed/,
    );
    expect(
      (await failureOf('non-serializable-message', { onSerializationError: 'swallow' })).message,
    ).toMatch(/lost silently/);
  });

  it('every scenario: a transport that calls onerror during a clean exchange', async () => {
    const failure = await failureOf('messages-client-to-server', { spuriousError: true });
    expect(failure.message).toMatch(/onerror fired during a clean exchange: Error: spurious/);
  });

  it('a full run names exactly the scenarios a defect breaks and passes the rest', async () => {
    expect(await failedScenarios({ deliverAfterClose: true })).toEqual(['no-delivery-after-close']);
    // A close() that is not idempotent also double-fires whenever both ends end up calling it.
    expect(await failedScenarios({ closeNotIdempotent: true })).toEqual([
      'close-idempotent',
      'close-both-sides-at-once',
      'send-after-close',
    ]);
    expect(await failedScenarios({ sendAfterClose: 'hang' })).toEqual([
      'close-from-client',
      'close-from-server',
      'send-after-close',
    ]);
  });
});
