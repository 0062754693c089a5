import { ConnectionClosedError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { SendBufferFullError } from '../src/errors.js';
import { EAGER_BUFFER_BYTES, type QueueSocket, SendQueue } from '../src/send-queue.js';

/** A socket whose buffer the test sets, and whose write callbacks it runs (in order, as `ws` does). */
class FakeSocket implements QueueSocket {
  bufferedAmount = 0;
  /** Bytes each send leaves in the buffer (0: the kernel takes the frame at once). */
  leave = 0;
  readonly sent: string[] = [];
  readonly callbacks: Array<(error?: Error | null) => void> = [];

  send(data: string, callback: (error?: Error | null) => void): void {
    this.sent.push(data);
    this.bufferedAmount += this.leave;
    this.callbacks.push(callback);
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
  it('settles frames at once while the socket holds at most a turn’s worth, without their callbacks', async () => {
    const socket = new FakeSocket();
    socket.leave = 100; // e.g. held by the cork until the turn ends
    const queue = new SendQueue(socket, 1_000_000);
    const first = queue.send('a');
    const second = queue.send('b');
    expect(await state(first)).toBe('resolved');
    expect(await state(second)).toBe('resolved');
    expect(socket.sent).toEqual(['a', 'b']);
    socket.complete(2); // the late callbacks settle nothing else
    expect(queue.size).toBe(0);
  });

  it('makes a frame left in the buffer wait for its own callback, not an earlier frame’s', async () => {
    const socket = new FakeSocket();
    const queue = new SendQueue(socket, 1_000_000);
    const early = queue.send('early'); // written at once
    socket.leave = EAGER_BUFFER_BYTES + 1;
    const stuck = queue.send('stuck'); // the socket now holds more than a turn's worth
    const behind = queue.send('behind'); // the buffer is not empty: waits its turn
    expect(await state(early)).toBe('resolved');
    socket.complete(1); // early's callback
    expect(await state(stuck)).toBe('pending');
    socket.complete(1);
    expect(await state(stuck)).toBe('resolved');
    expect(await state(behind)).toBe('pending');
    socket.complete(1);
    expect(await state(behind)).toBe('resolved');
  });

  it('refuses while the buffer is full and fails waiting frames when a write fails', async () => {
    const socket = new FakeSocket();
    const max = 3 * EAGER_BUFFER_BYTES;
    const queue = new SendQueue(socket, max);
    socket.leave = 2 * EAGER_BUFFER_BYTES;
    const one = queue.send('1'); // past the eager bound: waits
    const two = queue.send('2'); // behind it: waits
    const refused = queue.send('3'); // the buffer holds 4 × EAGER_BUFFER_BYTES: refused
    expect(await state(refused)).toBe(`rejected: ${SendBufferFullError.name}`);
    socket.complete(1, new Error('EPIPE'));
    expect(await state(one)).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(await state(two)).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(await state(queue.send('4'))).toBe(`rejected: ${ConnectionClosedError.name}`);
  });
});
