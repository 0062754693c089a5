import { InMemoryTransport, type JSONRPCMessage, type Transport } from '@x/protocol/core';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_MAX_IN_FLIGHT_REQUESTS, DEFAULT_MAX_QUEUED_MESSAGES, pipeTransports } from '../src/index.js';

/** A client end and a server end joined through a pipe: client ⇄ [down | pipe | up] ⇄ server. */
async function piped(options: Parameters<typeof pipeTransports>[2] = {}) {
  const [client, down] = InMemoryTransport.createLinkedPair();
  const [up, server] = InMemoryTransport.createLinkedPair();
  const atClient: JSONRPCMessage[] = [];
  const atServer: JSONRPCMessage[] = [];
  client.onmessage = (message) => atClient.push(message);
  server.onmessage = (message) => atServer.push(message);
  await client.start();
  await server.start();
  const pipe = await pipeTransports(down, up, options);
  return { client, server, pipe, atClient, atServer };
}

describe('pipeTransports (raw mode)', () => {
  it('exports its defaults', () => {
    expect(DEFAULT_MAX_QUEUED_MESSAGES).toBe(1_000);
    expect(DEFAULT_MAX_IN_FLIGHT_REQUESTS).toBe(1_000);
  });

  it('forwards messages unchanged both ways, in order', async () => {
    const { client, server, pipe, atClient, atServer } = await piped();
    const requests: JSONRPCMessage[] = Array.from({ length: 50 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'echo', arguments: { i, odd: { nested: [i, 'x'] } } },
    }));
    for (const request of requests) await client.send(request);
    await vi.waitFor(() => expect(atServer).toHaveLength(50));
    expect(atServer).toEqual(requests);
    const notification: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 1 },
    };
    await server.send(notification);
    for (let i = 0; i < 50; i++) await server.send({ jsonrpc: '2.0', id: i, result: { i } });
    await vi.waitFor(() => expect(atClient).toHaveLength(51));
    expect(atClient[0]).toEqual(notification);
    expect(atClient.slice(1)).toEqual(
      Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: i, result: { i } })),
    );
    expect(pipe.inFlight).toEqual([0, 0]);
    await pipe.close();
  });

  it('answers every pending request with -32000 naming the upstream when the upstream is lost', async () => {
    const { client, server, pipe, atClient, atServer } = await piped({ upstreamName: 'stdio: everything' });
    await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } });
    await client.send({ jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'slow' } });
    await client.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    await vi.waitFor(() => expect(atServer).toHaveLength(3));
    await server.send({ jsonrpc: '2.0', id: 3, result: { tools: [] } });
    await vi.waitFor(() => expect(atClient).toHaveLength(1));
    const clientClosed = new Promise<void>((resolve) => {
      client.onclose = resolve;
    });
    await server.close();
    await pipe.closed;
    await clientClosed;
    const errors = atClient.slice(1);
    expect(errors.map((m) => ('id' in m ? m.id : undefined)).sort()).toEqual([1, 'b']);
    for (const answer of errors) {
      expect(answer).toMatchObject({
        error: { code: -32000, data: { bridge: true, side: 'upstream', name: 'stdio: everything' } },
      });
    }
  });

  it('closing the downstream closes the upstream', async () => {
    const { client, server, pipe } = await piped();
    const serverClosed = new Promise<void>((resolve) => {
      server.onclose = resolve;
    });
    await client.close();
    await serverClosed;
    await pipe.closed;
  });

  it('refuses requests past maxInFlightRequests with an error naming the option', async () => {
    const { client, server, pipe, atClient, atServer } = await piped({ maxInFlightRequests: 2 });
    for (const id of [1, 2, 3]) await client.send({ jsonrpc: '2.0', id, method: 'ping' });
    await vi.waitFor(() => expect(atClient).toHaveLength(1));
    expect(atServer).toHaveLength(2);
    expect(atClient[0]).toMatchObject({
      id: 3,
      error: { code: -32000, data: { option: 'maxInFlightRequests', limit: 2 } },
    });
    expect(JSON.stringify(atClient[0])).toMatch(/maxInFlightRequests/);
    // An answer frees the slot.
    await server.send({ jsonrpc: '2.0', id: 1, result: {} });
    await vi.waitFor(() => expect(atClient).toHaveLength(2));
    await client.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    await vi.waitFor(() => expect(atServer).toHaveLength(3));
    await pipe.close();
  });

  it('refuses requests past maxQueuedMessages while the receiving side does not take them', async () => {
    const [client, down] = InMemoryTransport.createLinkedPair();
    const atClient: JSONRPCMessage[] = [];
    client.onmessage = (message) => atClient.push(message);
    await client.start();
    const sent: Array<() => void> = [];
    // An upstream whose sends never settle until released: a peer that stopped reading.
    const stuck: Transport = {
      start: async () => {},
      send: () => new Promise<void>((resolve) => sent.push(resolve)),
      close: async () => {},
    };
    const errors: Error[] = [];
    const pipe = await pipeTransports(down, stuck, { maxQueuedMessages: 3, onerror: (e) => errors.push(e) });
    for (const id of [1, 2, 3, 4]) await client.send({ jsonrpc: '2.0', id, method: 'ping' });
    await client.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    await vi.waitFor(() => expect(atClient).toHaveLength(1));
    expect(sent).toHaveLength(3);
    expect(atClient[0]).toMatchObject({
      id: 4,
      error: { code: -32000, data: { option: 'maxQueuedMessages', limit: 3 } },
    });
    expect(errors.map((e) => e.message).join()).toMatch(/maxQueuedMessages/);
    for (const release of sent) release();
    await vi.waitFor(async () => {
      await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(sent.length).toBeGreaterThan(3);
    });
    await pipe.close();
  });

  it('holds messages until the other side has started', async () => {
    const [client, down] = InMemoryTransport.createLinkedPair();
    await client.start();
    let startUp!: () => void;
    const got: JSONRPCMessage[] = [];
    const slow: Transport = {
      start: () =>
        new Promise<void>((resolve) => {
          startUp = resolve;
        }),
      send: async (message) => {
        got.push(message);
      },
      close: async () => {},
    };
    const piping = pipeTransports(down, slow);
    await vi.waitFor(() => expect(startUp).toBeTypeOf('function'));
    await client.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await client.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(got).toEqual([]);
    startUp();
    const pipe = await piping;
    expect(got.map((m) => ('id' in m ? m.id : undefined))).toEqual([1, 2]);
    await pipe.close();
  });

  it('refuses a bound that is not a positive integer', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await expect(pipeTransports(a, b, { maxQueuedMessages: 0 })).rejects.toThrow(/maxQueuedMessages/);
  });
});
