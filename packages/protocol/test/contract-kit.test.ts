import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConnectionClosedError,
  encodeJsonLine,
  InMemoryTransport,
  type JSONRPCMessage,
  JsonLineDecoder,
  type Transport,
} from '@x/protocol';
import {
  ContractScenarioError,
  runTransportContract,
  TransportContractError,
  type TransportPairFactory,
  transportContractScenarios,
} from '@x/protocol/testing';
import { afterTurn } from '@x/test-kit';

const inMemoryPair: TransportPairFactory = async () => {
  const [client, server] = InMemoryTransport.createLinkedPair();
  return { client, server };
};

/** Deterministic PRNG (mulberry32) so a chunking that breaks something can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One direction of an in-process byte stream that re-chunks whatever is written at random byte offsets
 * (so multi-byte characters and newlines get split) and delivers the pieces on later macrotasks, like a
 * pipe would.
 */
class ByteChannel {
  ondata: ((chunk: Uint8Array) => void) | undefined;
  onend: (() => void) | undefined;
  readonly #next: () => number;
  #queue: Array<Uint8Array | 'end'> = [];
  #scheduled = false;

  constructor(seed: number) {
    this.#next = random(seed);
  }

  write(bytes: Uint8Array): void {
    let offset = 0;
    while (offset < bytes.length) {
      const size = 1 + Math.floor(this.#next() * (this.#next() < 0.5 ? 8 : 70_000));
      this.#queue.push(bytes.subarray(offset, offset + size));
      offset += size;
    }
    this.#schedule();
  }

  end(): void {
    this.#queue.push('end');
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setTimeout(() => {
      this.#scheduled = false;
      // A few pieces per tick: several lines often land in one `push`, the case closing mid-chunk needs.
      for (let count = 0; count < 16; count += 1) {
        const piece = this.#queue.shift();
        if (piece === undefined) return;
        if (piece === 'end') this.onend?.();
        else this.ondata?.(piece);
      }
      if (this.#queue.length > 0) this.#schedule();
    }, 0);
  }
}

/** A minimal but correct newline-delimited JSON transport over byte channels: the stdio shape. */
class LinePipeTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  readonly #incoming: ByteChannel;
  readonly #outgoing: ByteChannel;
  readonly #encoder = new TextEncoder();
  readonly #guardClosed: boolean;
  #closed = false;

  /** `guardClosed: false` reproduces the classic byte-stream bug the kit must catch. */
  constructor(incoming: ByteChannel, outgoing: ByteChannel, { guardClosed = true } = {}) {
    this.#incoming = incoming;
    this.#outgoing = outgoing;
    this.#guardClosed = guardClosed;
  }

  async start(): Promise<void> {
    const decoder = new JsonLineDecoder({
      // The decoder may hold more lines of the same chunk: once closed, they must not come out.
      onmessage: (message) => {
        if (!this.#closed || !this.#guardClosed) this.onmessage?.(message);
      },
      onerror: (error) => this.onerror?.(error),
    });
    this.#incoming.ondata = (chunk) => decoder.push(chunk);
    this.#incoming.onend = () => void this.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new ConnectionClosedError();
    this.#outgoing.write(this.#encoder.encode(encodeJsonLine(message)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#outgoing.end();
    this.onclose?.();
  }
}

let pipeSeed = 1;
function linePipes(options?: { guardClosed: boolean }): TransportPairFactory {
  return async () => {
    const toServer = new ByteChannel(pipeSeed++);
    const toClient = new ByteChannel(pipeSeed++);
    return {
      client: new LinePipeTransport(toClient, toServer, options),
      server: new LinePipeTransport(toServer, toClient, options),
    };
  };
}

describe('transport contract kit against correct transports', () => {
  it('InMemoryTransport passes every scenario', async () => {
    const result = await runTransportContract(inMemoryPair);
    expect(result.passed).toEqual(transportContractScenarios.map((scenario) => scenario.name));
    expect(result.skipped).toEqual([]);
  });

  it('a newline-delimited JSON transport over randomly re-chunked byte pipes passes every scenario', async () => {
    const result = await runTransportContract(linePipes());
    expect(result.passed).toHaveLength(transportContractScenarios.length);
  });

  it('catches a byte-stream transport that keeps emitting decoded lines after close()', async () => {
    const error = await runTransportContract(linePipes({ guardClosed: false }), {
      skip: { 'large-message': 'not about size', 'concurrent-requests': 'not about load' },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportContractError);
    expect((error as TransportContractError).failedScenarios).toEqual(['no-delivery-after-close']);
  });

  // The per-test style the scenario list is exported for.
  for (const scenario of transportContractScenarios) {
    it(`scenario ${scenario.name} runs on its own`, async () => {
      await scenario.run(inMemoryPair, { messageCount: 100, concurrentRequests: 100 });
    });
  }
});

describe('InMemoryTransport fixes', () => {
  it("closes the other end even when this end's onclose throws (regression)", async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    let serverClosed = 0;
    client.onclose = () => {
      throw new Error('handler bug');
    };
    server.onclose = () => {
      serverClosed += 1;
    };
    await Promise.all([client.start(), server.start()]);
    await expect(client.close()).rejects.toThrow('handler bug');
    expect(serverClosed).toBe(1);
    await expect(server.send({ jsonrpc: '2.0', method: 'late' })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
  });
});

it('delivers in order, a microtask later, without an async resource per message', async () => {
  // Node's queueMicrotask creates an AsyncResource ("Microtask") for every callback; that cost as
  // much as the rest of a small call before the JIT warmed up, so delivery rides a promise reaction.
  const { createHook } = await import('node:async_hooks');
  const types: string[] = [];
  const hook = createHook({ init: (_id, type) => void types.push(type) });
  const [client, server] = InMemoryTransport.createLinkedPair();
  const received: unknown[] = [];
  server.onmessage = (message) => void received.push((message as { method: string }).method);
  await Promise.all([client.start(), server.start()]);
  hook.enable();
  try {
    const sent = ['a', 'b', 'c'].map((method) => client.send({ jsonrpc: '2.0', method }));
    expect(received).toEqual([]);
    await Promise.all(sent);
    await Promise.resolve();
    expect(received).toEqual(['a', 'b', 'c']);
  } finally {
    hook.disable();
  }
  expect(types).not.toContain('Microtask');
});

describe('InMemoryTransport inbox (one microtask drains every message sent since the last)', () => {
  const note = (method: string): JSONRPCMessage => ({ jsonrpc: '2.0', method });
  const methodOf = (message: JSONRPCMessage): string => (message as { method: string }).method;

  it('a throwing onmessage costs no later message; the first error surfaces as an unhandled rejection', async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const received: string[] = [];
    server.onmessage = (message) => {
      received.push(methodOf(message));
      if (methodOf(message).startsWith('bad')) throw new Error(`handler bug ${methodOf(message)}`);
    };
    await Promise.all([client.start(), server.start()]);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const method of ['a', 'bad1', 'b', 'bad2', 'c']) void client.send(note(method));
      await afterTurn();
      expect(received).toEqual(['a', 'bad1', 'b', 'bad2', 'c']);
      expect(unhandled.map((reason) => (reason as Error).message)).toEqual(['handler bug bad1']);
      // The next message gets a drain of its own.
      void client.send(note('d'));
      await afterTurn();
      expect(received.at(-1)).toBe('d');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('keeps order for messages sent while a drain runs, in both directions, across many bursts', async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const atServer: string[] = [];
    const atClient: string[] = [];
    // Each message the server receives makes the client send a follow-up at once (from inside the drain).
    server.onmessage = (message) => {
      const method = methodOf(message);
      atServer.push(method);
      if (!method.endsWith('+')) void client.send(note(`${method}+`));
      void server.send(note(`echo:${method}`));
    };
    client.onmessage = (message) => void atClient.push(methodOf(message));
    await Promise.all([client.start(), server.start()]);
    const expected: string[] = [];
    for (let burst = 0; burst < 50; burst++) {
      const size = 1 + (burst % 7) * 60; // up to 361 messages: more than the inbox keeps between drains
      const methods = Array.from({ length: size }, (_, i) => `m${burst}.${i}`);
      for (const method of methods) void client.send(note(method));
      expected.push(...methods, ...methods.map((method) => `${method}+`));
      await afterTurn();
    }
    expect(atServer).toEqual(expected);
    expect(atClient).toEqual(expected.map((method) => `echo:${method}`));
  });

  it('delivers nothing more once the receiving end closes, even from the drain under way', async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const received: string[] = [];
    server.onmessage = (message) => {
      received.push(methodOf(message));
      if (methodOf(message) === 'b') void server.close();
    };
    await Promise.all([client.start(), server.start()]);
    for (const method of ['a', 'b', 'c', 'd']) void client.send(note(method));
    await afterTurn();
    expect(received).toEqual(['a', 'b']);
  });
});

describe('runTransportContract options and reporting', () => {
  it('skips named scenarios and reports the reasons', async () => {
    const result = await runTransportContract(inMemoryPair, {
      skip: { 'large-message': 'frames are capped by design', unicode: 'not today' },
      messageCount: 50,
      concurrentRequests: 50,
    });
    expect(result.skipped).toEqual([
      { name: 'large-message', reason: 'frames are capped by design' },
      { name: 'unicode', reason: 'not today' },
    ]);
    expect(result.passed).not.toContain('large-message');
    expect(result.passed).toHaveLength(transportContractScenarios.length - 2);
  });

  it('refuses an unknown scenario name or an empty reason in skip, before building any pair', async () => {
    let built = 0;
    const counting: TransportPairFactory = async (context) => {
      built += 1;
      return inMemoryPair(context);
    };
    await expect(runTransportContract(counting, { skip: { 'large-messages': 'typo' } })).rejects.toThrow(
      /Unknown transport contract scenario "large-messages"/,
    );
    await expect(runTransportContract(counting, { skip: { unicode: ' ' } })).rejects.toThrow(
      /needs a reason/,
    );
    expect(built).toBe(0);
  });

  it('rejects nonsensical numeric options', async () => {
    await expect(runTransportContract(inMemoryPair, { timeoutMs: 0 })).rejects.toBeInstanceOf(TypeError);
    await expect(runTransportContract(inMemoryPair, { messageCount: 1.5 })).rejects.toThrow(/messageCount/);
    await expect(runTransportContract(inMemoryPair, { settleMs: -1 })).rejects.toThrow(/settleMs/);
  });

  it('passes the scenario name and an abort signal to the factory, and disposes every pair', async () => {
    const seen: string[] = [];
    let disposed = 0;
    await runTransportContract(
      async (context) => {
        expect(context.signal.aborted).toBe(false);
        seen.push(context.scenario);
        const [client, server] = InMemoryTransport.createLinkedPair();
        return {
          client,
          server,
          dispose: async () => {
            disposed += 1;
          },
        };
      },
      { messageCount: 20, concurrentRequests: 20 },
    );
    expect(seen).toEqual(transportContractScenarios.map((scenario) => scenario.name));
    expect(disposed).toBe(transportContractScenarios.length);
  });

  it('accepts pairs the factory already started (server end created on connect)', async () => {
    const result = await runTransportContract(
      async () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        await client.start();
        await server.start();
        return { client, server, started: true };
      },
      { messageCount: 20, concurrentRequests: 20 },
    );
    expect(result.passed).toHaveLength(transportContractScenarios.length);
  });

  it('reports a factory that throws synchronously, and aborts a factory that hangs', async () => {
    const ordering = transportContractScenarios.find((scenario) => scenario.name === 'ordering');
    const throwing = (() => {
      throw new Error('no port');
    }) as unknown as TransportPairFactory;
    await expect(ordering?.run(throwing)).rejects.toThrow(
      '[ordering] the transport pair factory failed: Error: no port',
    );
    let signal: AbortSignal | undefined;
    const hanging: TransportPairFactory = (context) => {
      signal = context.signal;
      return new Promise(() => undefined);
    };
    await expect(ordering?.run(hanging, { timeoutMs: 50 })).rejects.toThrow(
      '[ordering] timed out after 50 ms during "building the transport pair"',
    );
    expect(signal?.aborted).toBe(true);
  });

  it('reports every failing scenario in one TransportContractError', async () => {
    const error = await runTransportContract(
      async () => {
        throw new Error('port in use');
      },
      { skip: { unicode: 'irrelevant here' } },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportContractError);
    expect(error).toBeInstanceOf(AggregateError);
    const contractError = error as TransportContractError;
    expect(contractError.errors).toHaveLength(transportContractScenarios.length - 1);
    expect(contractError.errors.every((failure) => failure instanceof ContractScenarioError)).toBe(true);
    expect(contractError.failedScenarios).not.toContain('unicode');
    expect(contractError.skipped).toEqual([{ name: 'unicode', reason: 'irrelevant here' }]);
    expect(contractError.message).toMatch(/^12 of 12 transport contract scenarios failed:/);
    expect(contractError.message).toContain(
      '[ordering] the transport pair factory failed: Error: port in use',
    );
  });
});

describe('transport contract kit packaging', () => {
  const testingDir = join(import.meta.dirname, '../src/testing');
  const sources = (readdirSync(testingDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts'))
    // Comments hold usage examples that import '@x/protocol/testing'; only code counts here.
    .map((file) => ({
      file,
      text: readFileSync(join(testingDir, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, ''),
    }));

  it('scenario names are unique kebab-case and every scenario describes itself', () => {
    const names = transportContractScenarios.map((scenario) => scenario.name);
    expect(new Set(names).size).toBe(names.length);
    for (const scenario of transportContractScenarios) {
      expect(scenario.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(scenario.description.length).toBeGreaterThan(20);
    }
  });

  it('is runtime-neutral and framework-agnostic: only relative imports inside @x/protocol', () => {
    expect(sources.length).toBeGreaterThan(5);
    for (const { file, text } of sources) {
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]);
      for (const specifier of specifiers) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\/.*\.js$/);
      }
      expect(text, file).not.toMatch(/\bvitest\b|\bjest\b|node:|\bprocess\.|\bBuffer\b|\brequire\(/);
    }
  });
});
