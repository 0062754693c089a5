import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { NodeWireSocket } from '../src/node-wire-socket.js';
import { defer } from './helpers.js';

async function socketPair(): Promise<{ server: WebSocket; client: WebSocket }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  defer(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  await once(wss, 'listening');
  const { port } = wss.address() as { port: number };
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${port}/`);
  defer(() => client.terminate());
  await once(client, 'open');
  const [server] = await accepted;
  return { server, client };
}

function wire(socket: WebSocket): { wire: NodeWireSocket; closes: Array<[number, string]> } {
  const closes: Array<[number, string]> = [];
  const result = new NodeWireSocket(
    socket,
    { ontext: () => {}, onerror: () => {}, onclose: (code, reason) => closes.push([code, reason]) },
    {
      heartbeatIntervalMs: 0,
      maxBufferedBytes: 1 << 20,
      maxQueuedBytes: 1 << 22,
      sendStallTimeoutMs: 0,
      closeTimeoutMs: 2_000,
    },
  );
  return { wire: result, closes };
}

describe('NodeWireSocket close', () => {
  it('close() resolves once the socket is gone; every caller gets the same promise; onclose fires once', async () => {
    const { server } = await socketPair();
    const { wire: side, closes } = wire(server);
    const first = side.close(1000, 'bye');
    const second = side.close(1000, 'bye');
    expect(second).toBe(first);
    await first;
    expect(server.readyState).toBe(WebSocket.CLOSED);
    expect(closes).toEqual([[1000, 'bye']]);
  });

  it('close() after the peer closed resolves at once, and the first close event was reported', async () => {
    const { server, client } = await socketPair();
    const { wire: side, closes } = wire(server);
    client.close(4001, 'peer');
    await once(server, 'close');
    expect(closes).toEqual([[4001, 'peer']]);
    await side.close(1000, 'late'); // would hang without the socket's close having been seen
    await expect(side.send('x')).rejects.toMatchObject({ name: 'ConnectionClosedError' });
    expect(closes).toHaveLength(1);
  });
});
