import { ErrorCode } from '@x/protocol';
import { MCP_SUBPROTOCOL } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  answersOnly,
  BATCHING,
  handshake,
  LATER,
  pong,
  type RawPeer,
  TextQueue,
} from './fixtures/batch-helpers.js';
import { createE2eServer, Resources } from './fixtures/e2e-helpers.js';

// Issue #24 (10), over a real WebSocket: a request reusing the id of a request still in flight is
// answered -32600 and the original keeps its routing (JSON-RPC 2.0 §4: the id "MUST" let the client
// correlate the response; a duplicate cannot be told apart otherwise). In a 2025-03-26 batch the
// duplicate's error is part of that batch's one array ("an Array containing the corresponding Response
// objects"). The -32600 itself is the engine's (helper core's change); the routing is the transport's.

const resources = new Resources();
afterEach(() => resources.closeAll());

const wait = (id: number | string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'wait', arguments: {} },
});
const echo = (id: number | string, text: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text } },
});
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });

async function peer(): Promise<RawPeer> {
  const server = createE2eServer();
  const listener = resources.track(
    await listenWebSocket({
      port: 0,
      keepAliveMs: 0,
      onsession: (t) => server.connect(t),
    }),
  );
  const socket = new WebSocket(listener.url as URL, MCP_SUBPROTOCOL);
  resources.track({ close: () => socket.terminate() });
  const frames = new TextQueue();
  socket.on('message', (data) => frames.push(String(data)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return answersOnly({
    send: (text) =>
      new Promise<void>((resolve, reject) =>
        socket.send(text, (error) => (error ? reject(error) : resolve())),
      ),
    next: () => frames.next(),
  });
}

function isDuplicateError(value: unknown, id: number | string): boolean {
  const message = value as { id?: unknown; error?: { code?: unknown } };
  return message.id === id && message.error?.code === ErrorCode.InvalidRequest;
}

describe('WebSocket: duplicate in-flight request ids', () => {
  it('answers the duplicate -32600; the original is still answered once, on its own', async () => {
    const raw = await peer();
    await handshake(raw, LATER);
    await raw.send(JSON.stringify(wait(7)));
    await raw.send(JSON.stringify(ping(7)));
    const answer = JSON.parse(await raw.next());
    expect(isDuplicateError(answer, 7)).toBe(true);
    expect(answer.error.message).toMatch(/Duplicate request id/);
    await raw.send(JSON.stringify(ping(8)));
    expect(await raw.next()).toBe(pong(8));
  });

  it('2025-03-26: a duplicate inside one batch is answered -32600 in that batch’s array, with the original', async () => {
    const raw = await peer();
    await handshake(raw, BATCHING);
    await raw.send(JSON.stringify([echo(8, 'first'), echo(8, 'second'), ping(9)]));
    const reply = JSON.parse(await raw.next()) as Array<{ id: unknown; result?: unknown; error?: unknown }>;
    expect(Array.isArray(reply)).toBe(true);
    expect(reply).toHaveLength(3);
    expect(reply.filter((element) => isDuplicateError(element, 8))).toHaveLength(1);
    expect(reply).toContainEqual({
      jsonrpc: '2.0',
      id: 8,
      result: { content: [{ type: 'text', text: 'first' }] },
    });
    expect(reply).toContainEqual(JSON.parse(pong(9)));
  });

  it('2025-03-26: a batch element reusing the id of a single request in flight gets its -32600 in the batch', async () => {
    const raw = await peer();
    await handshake(raw, BATCHING);
    await raw.send(JSON.stringify(wait(5)));
    await raw.send(JSON.stringify([ping(5), ping(6)]));
    const reply = JSON.parse(await raw.next()) as unknown[];
    expect(reply).toHaveLength(2);
    expect(reply.some((element) => isDuplicateError(element, 5))).toBe(true);
    expect(reply).toContainEqual(JSON.parse(pong(6)));
  });

  it('2025-03-26: a request reusing the id of a batch element in flight is answered on its own, the batch keeps waiting', async () => {
    const raw = await peer();
    await handshake(raw, BATCHING);
    await raw.send(JSON.stringify([wait(10), ping(11)]));
    await raw.send(JSON.stringify(ping(10)));
    expect(isDuplicateError(JSON.parse(await raw.next()), 10)).toBe(true);
    await raw.send(JSON.stringify([ping(10), ping(12)]));
    const second = JSON.parse(await raw.next()) as unknown[];
    expect(second).toHaveLength(2);
    expect(second.some((element) => isDuplicateError(element, 10))).toBe(true);
    expect(second).toContainEqual(JSON.parse(pong(12)));
  });
});
