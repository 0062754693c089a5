import { ConnectionClosedError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { SendBufferFullError } from '../src/errors.js';
import { EAGER_BUFFER_BYTES, type QueueSocket, SendQueue } from '../src/send-queue.js';

/** A socket whose buffer the test sets, and whose write callbacks it runs (in order, as `ws` does). */
class FakeSocket implements QueueSocket {
  bufferedAmount = 0;
  readyState = 1;
  /** Bytes each send leaves in the buffer (0: the kernel takes the frame at once). */
  leave = 0;
  readonly sent: string[] = [];
  readonly callbacks: Array<(error?: Error | null) => void> = [];

  send(data: string, callback?: (error?: Error | null) => void): void {
    this.sent.push(data);
    this.bufferedAmount += this.leave;
    if (callback !== undefined) this.callbacks.push(callback);
  }

  complete(count: number, error?: Error): void {
    for (const callback of this.callbacks.splice(0, count)) callback(error);
  }
}

async function state(promise: Promise<void>): Promise<string> {
  return Promise.race([
    promise.then(
      () => 'resolved',
      (error: unknown) => `rejected: ${(error as Error).constructor.name}`,
    ),
    new Promise<string>((resolve) => setImmediate(() => resolve('pending'))),
  ]);
}

describe('SendQueue', () => {
  it('settles frames at once while the socket holds at most a turn’s worth, and gives them no callback', async () => {
    const socket = new FakeSocket();
    socket.leave = 100; // e.g. held by the cork until the turn ends
    const queue = new SendQueue(socket, 1_000_000);
    const first = queue.send('a');
    const second = queue.send('b');
    expect(await state(first)).toBe('resolved');
    expect(await state(second)).toBe('resolved');
    expect(socket.sent).toEqual(['a', 'b']);
    // A write callback would cost Node's stream a process.nextTick per frame.
    expect(socket.callbacks).toHaveLength(0);
    expect(queue.size).toBe(0);
  });

  it('makes a frame that finds the buffer full wait for its own callback, and later frames behind it', async () => {
    const socket = new FakeSocket();
    const queue = new SendQueue(socket, 1_000_000);
    const early = queue.send('early'); // written at once
    socket.bufferedAmount = EAGER_BUFFER_BYTES; // the socket now holds a turn's worth
    const stuck = queue.send('stuck');
    socket.bufferedAmount = 0;
    const behind = queue.send('behind'); // the buffer is empty, but a frame waits: so does this one
    expect(await state(early)).toBe('resolved');
    expect(await state(stuck)).toBe('pending');
    expect(await state(behind)).toBe('pending');
    expect(socket.callbacks).toHaveLength(2);
    socket.complete(1);
    expect(await state(stuck)).toBe('resolved');
    expect(await state(behind)).toBe('pending');
    socket.complete(1);
    expect(await state(behind)).toBe('resolved');
    expect(socket.sent).toEqual(['early', 'stuck', 'behind']);
  });

  it('refuses while the buffer is full and fails waiting frames when a write fails', async () => {
    const socket = new FakeSocket();
    const max = 3 * EAGER_BUFFER_BYTES;
    const queue = new SendQueue(socket, max);
    socket.bufferedAmount = EAGER_BUFFER_BYTES + 1;
    socket.leave = EAGER_BUFFER_BYTES;
    const one = queue.send('1'); // past the eager bound: waits
    const two = queue.send('2'); // behind it: waits
    const refused = queue.send('3'); // the buffer holds 3 × EAGER_BUFFER_BYTES + 1: refused
    expect(await state(refused)).toBe(`rejected: ${SendBufferFullError.name}`);
    socket.complete(1, new Error('EPIPE'));
    expect(await state(one)).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(await state(two)).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(await state(queue.send('4'))).toBe(`rejected: ${ConnectionClosedError.name}`);
  });

  it('refuses a frame once the socket is closing (ws would drop it silently), writing nothing', async () => {
    const socket = new FakeSocket();
    const queue = new SendQueue(socket, 1_000_000);
    socket.readyState = 2; // CLOSING
    expect(await state(queue.send('late'))).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(socket.sent).toEqual([]);
  });
});
