import { isJSONRPCRequest, isJSONRPCResponse } from '@x/protocol';
import type { JSONRPCMessage, JSONRPCResponse, MessageExtraInfo } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { SseClientTransport } from '../src/index.js';
import type { SseServerTransport } from '../src/index.js';
import { startSseServer, useCleanup } from './helpers.js';
import { waitFor } from '@x/test-kit';

const addCleanup = useCleanup();

/** Answers every request with `{ echo: params }` and records everything it receives. */
function echo(
  transport: SseServerTransport,
): Array<{ message: JSONRPCMessage; extra: MessageExtraInfo | undefined }> {
  const received: Array<{ message: JSONRPCMessage; extra: MessageExtraInfo | undefined }> = [];
  transport.onmessage = (message, extra) => {
    received.push({ message, extra });
    if (isJSONRPCRequest(message)) {
      // A reply racing the test's teardown may find the session closed; that is not what is under test.
      transport
        .send({ jsonrpc: '2.0', id: message.id, result: { echo: message.params ?? {} } })
        .catch(() => {});
    }
  };
  return received;
}

async function connect(options: { maxConcurrentSends?: number } = {}) {
  let received: ReturnType<typeof echo> = [];
  const harness = await startSseServer(addCleanup, {}, (transport) => {
    received = echo(transport);
  });
  const client = new SseClientTransport(harness.url, { headers: { 'x-test': 'yes' }, ...options });
  const inbox: JSONRPCMessage[] = [];
  client.onmessage = (message) => inbox.push(message);
  addCleanup(() => client.close());
  await client.start();
  const server = harness.sessions[0];
  if (server === undefined) throw new Error('no session');
  return { harness, client, server, received, inbox };
}

describe('SseClientTransport ↔ SseServer', () => {
  it('carries requests, responses and notifications both ways, with request info', async () => {
    const { client, server, received, inbox } = await connect();
    expect(client.sessionId).toBe(server.sessionId);

    await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'a' } });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await waitFor(() => inbox.length === 1);
    expect(inbox[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { cursor: 'a' } } });
    expect(received.map((r) => r.message)).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'a' } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    const info = received[0]?.extra?.requestInfo;
    expect(info?.headers['x-test']).toBe('yes');
    expect(info?.url?.searchParams.get('sessionId')).toBe(server.sessionId);

    // Server → client request, answered by the client over POST.
    const replies: Array<Promise<void>> = [];
    client.onmessage = (message) => {
      inbox.push(message);
      if (isJSONRPCRequest(message))
        replies.push(client.send({ jsonrpc: '2.0', id: message.id, result: { roots: [] } }));
    };
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'hi' },
    });
    await server.send({ jsonrpc: '2.0', id: 's1', method: 'roots/list' });
    await waitFor(() => received.length === 3);
    await Promise.all(replies);
    expect(received[2]?.message).toEqual({ jsonrpc: '2.0', id: 's1', result: { roots: [] } });
    expect(inbox.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
      { jsonrpc: '2.0', id: 's1', method: 'roots/list' },
    ]);
  });

  it('reports a throwing onmessage through onerror on either end and keeps the session', async () => {
    const { client, server, inbox } = await connect();
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    server.onerror = (error) => errors.push(error);
    const boom = () => {
      throw new Error('handler bug');
    };
    const [clientHandler, serverHandler] = [client.onmessage, server.onmessage];
    client.onmessage = boom;
    server.onmessage = boom;
    await server.send({ jsonrpc: '2.0', method: 'notifications/one' });
    await client.send({ jsonrpc: '2.0', method: 'notifications/two' });
    await waitFor(() => errors.length === 2);
    expect(errors.map((error) => error.message)).toEqual(['handler bug', 'handler bug']);
    client.onmessage = clientHandler;
    server.onmessage = serverHandler;
    await client.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    await waitFor(() => inbox.length === 1);
  });

  it('moves 1 MiB messages intact in both directions', async () => {
    const { client, inbox } = await connect();
    // Multi-byte characters and escaped newlines make chunk boundaries and line splitting matter.
    const big = 'é€😀\n'.repeat((1024 * 1024) / 10).padEnd(1024 * 1024, 'x');
    await client.send({ jsonrpc: '2.0', id: 'big', method: 'echo', params: { big } });
    await waitFor(() => inbox.length === 1);
    expect((inbox[0] as JSONRPCResponse & { result: { echo: { big: string } } }).result.echo.big).toBe(big);
  });

  it('completes 1,000 concurrent round trips, none lost, in order with maxConcurrentSends: 1', async () => {
    const { client, received, inbox } = await connect({ maxConcurrentSends: 1 });
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        client.send({ jsonrpc: '2.0', id: i, method: 'ping', params: { i } }),
      ),
    );
    await waitFor(() => inbox.length === 1000, { timeoutMs: 20_000 });
    expect(received.map((r) => (r.message as { id: number }).id)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i),
    );
    expect(new Set(inbox.filter(isJSONRPCResponse).map((m) => m.id)).size).toBe(1000);
  });

  it('overlaps POSTs by default, losing nothing, while a notification keeps its place', async () => {
    const { client, received, inbox } = await connect();
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < 500; i++) sends.push(client.send({ jsonrpc: '2.0', id: i, method: 'ping' }));
    sends.push(client.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }));
    for (let i = 500; i < 1000; i++) sends.push(client.send({ jsonrpc: '2.0', id: i, method: 'ping' }));
    await Promise.all(sends);
    await waitFor(() => inbox.length === 1000, { timeoutMs: 20_000 });
    expect(new Set(inbox.filter(isJSONRPCResponse).map((m) => m.id)).size).toBe(1000);
    // Nothing sent before the notification arrives after it, nothing sent after it arrives before it.
    const order = received.map((r) => (r.message as { id?: number }).id ?? 'notification');
    const at = order.indexOf('notification');
    expect(at).toBe(500);
    expect(order.slice(0, at).every((id) => typeof id === 'number' && id < 500)).toBe(true);
    expect(order.slice(at + 1).every((id) => typeof id === 'number' && id >= 500)).toBe(true);
  });
});
