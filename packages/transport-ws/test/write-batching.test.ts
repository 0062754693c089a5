import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenerWithSockets, rawClient } from './helpers.js';
import { waitFor } from '@x/test-kit';

type Writes = { calls: number; chunks: number };

/** Counts how the server's TCP socket hands bytes to the kernel: one entry per write system call. */
function countWrites(socket: Socket): Writes {
  const writes: Writes = { calls: 0, chunks: 0 };
  const target = socket as unknown as {
    _write(chunk: unknown, encoding: string, callback: () => void): void;
    _writev(chunks: unknown[], callback: () => void): void;
  };
  const write = target._write.bind(target);
  const writev = target._writev.bind(target);
  target._write = (chunk, encoding, callback) => {
    writes.calls++;
    writes.chunks++;
    write(chunk, encoding, callback);
  };
  target._writev = (chunks, callback) => {
    writes.calls++;
    writes.chunks += chunks.length;
    writev(chunks, callback);
  };
  return writes;
}

describe('WebSocket write batching', () => {
  it('sends the first frame of a turn at once and the rest of the turn in one write', async () => {
    const { listener, sockets } = await listenerWithSockets();
    const client = rawClient(listener.url!);
    const frames: string[] = [];
    client.socket.on('message', (data) => frames.push(String(data)));
    await client.opened;
    await waitFor(() => listener.sessions.size === 1);
    const [transport] = [...listener.sessions];
    const writes = countWrites(sockets[0]!);

    const sent = [1, 2, 3, 4, 5].map((n) =>
      transport!.send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: n },
      }),
    );
    await Promise.all(sent);
    await waitFor(() => frames.length === 5);
    // Frame 1 leaves as a sequential call's would (no wait for the turn to end); 2-5 leave together.
    expect(writes.calls).toBe(2);
    expect(frames.map((f) => (JSON.parse(f) as { params: { data: number } }).params.data)).toEqual([
      1, 2, 3, 4, 5,
    ]);

    await transport!.send({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 6 },
    });
    await waitFor(() => frames.length === 6);
    expect(writes.calls).toBe(3);
  });

  it('ends the turn of every connection that wrote in it: the held frames of each go out together', async () => {
    const { listener, sockets } = await listenerWithSockets();
    const clients = [rawClient(listener.url!), rawClient(listener.url!), rawClient(listener.url!)];
    const frames: string[][] = clients.map(() => []);
    for (const [i, client] of clients.entries()) {
      client.socket.on('message', (data) => frames[i]!.push(String(data)));
    }
    await Promise.all(clients.map((client) => client.opened));
    await waitFor(() => listener.sessions.size === 3 && sockets.length === 3);
    const transports = [...listener.sessions];
    const writes = sockets.map((socket) => countWrites(socket));

    // Interleaved, in one turn: every connection holds frames 2-3 until the shared end of the turn.
    const sent: Promise<void>[] = [];
    for (let n = 1; n <= 3; n++) {
      for (const transport of transports) {
        sent.push(
          transport.send({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: n },
          }),
        );
      }
    }
    await Promise.all(sent);
    await waitFor(() => frames.every((list) => list.length === 3));
    expect(writes.map((w) => w.calls)).toEqual([2, 2, 2]);
    for (const list of frames) {
      expect(list.map((f) => (JSON.parse(f) as { params: { data: number } }).params.data)).toEqual([1, 2, 3]);
    }

    // The next turn starts afresh on each of them.
    await Promise.all(
      transports.map((transport) =>
        transport.send({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', data: 4 },
        }),
      ),
    );
    await waitFor(() => frames.every((list) => list.length === 4));
    expect(writes.map((w) => w.calls)).toEqual([3, 3, 3]);
  });
});
