import { ConnectionClosedError } from '@x/protocol';
import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { SendBufferFullError, SendStalledError } from '../src/errors.js';
import { EAGER_BUFFER_BYTES, type QueueSocket, SendQueue, type SendQueueOptions } from '../src/send-queue.js';

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

/** A queue on `socket` that records its stalls; the stall check is off unless asked for. */
function queueOf(
  socket: FakeSocket,
  maxBufferedBytes: number,
  options: Partial<SendQueueOptions<FakeSocket>> = {},
): { queue: SendQueue<FakeSocket>; stalls: Error[] } {
  const stalls: Error[] = [];
  const queue = new SendQueue(socket, {
    maxBufferedBytes,
    maxQueuedBytes: 1 << 30,
    sendStallTimeoutMs: 0,
    onstall: (_socket, error) => stalls.push(error),
    ...options,
  });
  return { queue, stalls };
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
    const { queue } = queueOf(socket, 1_000_000);
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
    const { queue } = queueOf(socket, 1_000_000);
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

  it('holds frames that find the socket full until earlier ones are written, in order, and refuses none (issue #35)', async () => {
    const socket = new FakeSocket();
    const max = 3 * EAGER_BUFFER_BYTES;
    const { queue, stalls } = queueOf(socket, max);
    socket.bufferedAmount = EAGER_BUFFER_BYTES + 1;
    socket.leave = EAGER_BUFFER_BYTES;
    const one = queue.send('1'); // past the eager bound: written, waits for its callback
    const two = queue.send('2'); // behind it: written, waits
    // The socket now holds 3 × EAGER_BUFFER_BYTES + 1: these wait in the queue, not in the socket.
    const held = [queue.send('3'), queue.send('4'), queue.send('5')];
    expect(socket.sent).toEqual(['1', '2']);
    for (const promise of held) expect(await state(promise)).toBe('pending');
    expect(queue.queuedBytes).toBe(3);
    // '1' left: the socket drained below the bound, so one held frame goes out.
    socket.bufferedAmount -= EAGER_BUFFER_BYTES;
    socket.complete(1);
    expect(await state(one)).toBe('resolved');
    expect(socket.sent).toEqual(['1', '2', '3']);
    // Everything written so far leaves; the queue empties in order, one callback at a time.
    socket.leave = 0;
    socket.bufferedAmount = 0;
    while (socket.callbacks.length > 0) socket.complete(1);
    expect(socket.sent).toEqual(['1', '2', '3', '4', '5']);
    expect(await state(two)).toBe('resolved');
    for (const promise of held) expect(await state(promise)).toBe('resolved');
    expect(queue.size).toBe(0);
    expect(queue.queuedBytes).toBe(0);
    expect(stalls).toEqual([]);
  });

  it('gives the peer up when held frames would pass maxQueuedBytes: every waiting send fails with the error, onstall once', async () => {
    const socket = new FakeSocket();
    const { queue, stalls } = queueOf(socket, EAGER_BUFFER_BYTES, { maxQueuedBytes: 10 });
    socket.bufferedAmount = 2 * EAGER_BUFFER_BYTES;
    const written = queue.send('w'.repeat(EAGER_BUFFER_BYTES)); // nothing awaits a callback: written
    const held = queue.send('12345'); // socket full: held (5 bytes)
    const heldToo = queue.send('é'.repeat(2)); // 4 UTF-8 bytes: 9 held
    const over = queue.send('xy'); // 11 > 10
    const error = await over.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SendBufferFullError);
    expect((error as SendBufferFullError).limit).toBe(10);
    expect((error as Error).message).toMatch(/maxQueuedBytes \(10\)/);
    expect(stalls).toEqual([error]);
    for (const promise of [written, held, heldToo, queue.send('later')]) {
      expect(await promise.catch((reason: unknown) => reason)).toBe(error);
    }
    expect(socket.sent).toHaveLength(1);
  });

  it('gives the peer up when no frame leaves for sendStallTimeoutMs, and not while frames keep leaving', async () => {
    const socket = new FakeSocket();
    const { queue, stalls } = queueOf(socket, EAGER_BUFFER_BYTES, { sendStallTimeoutMs: 50 });
    socket.bufferedAmount = 2 * EAGER_BUFFER_BYTES;
    const first = queue.send('a'); // written, awaits its callback
    const second = queue.send('b'); // held
    // A callback every turn of the event loop (a peer that keeps reading), across several timeouts:
    // every check of the stall timer finds progress since the last one.
    const started = Date.now();
    let sends = 0;
    while (Date.now() - started < 200) {
      void queue.send(`more-${sends++}`).catch(() => {});
      await new Promise((resolve) => setImmediate(resolve));
      socket.complete(1);
    }
    expect(stalls).toEqual([]);
    expect(await state(first)).toBe('resolved');
    expect(await state(second)).toBe('resolved');
    // Now nothing leaves.
    const stuck = queue.send('stuck').catch((reason: unknown) => reason);
    await waitFor(() => stalls.length === 1, { timeoutMs: 5_000, what: 'the stall' });
    expect(stalls[0]).toBeInstanceOf(SendStalledError);
    expect(stalls[0]?.message).toMatch(/sendStallTimeoutMs \(50 ms\)/);
    expect(await stuck).toBe(stalls[0]);
  });

  it('fails waiting frames when a write fails', async () => {
    const socket = new FakeSocket();
    const { queue } = queueOf(socket, 3 * EAGER_BUFFER_BYTES);
    socket.bufferedAmount = EAGER_BUFFER_BYTES + 1;
    socket.leave = EAGER_BUFFER_BYTES;
    const one = queue.send('1');
    const two = queue.send('2');
    const held = queue.send('3');
    socket.complete(1, new Error('EPIPE'));
    expect(await state(one)).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(await state(two)).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(await state(held)).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(await state(queue.send('4'))).toBe(`rejected: ${ConnectionClosedError.name}`);
  });

  it('refuses a frame once the socket is closing (ws would drop it silently), writing nothing', async () => {
    const socket = new FakeSocket();
    const { queue } = queueOf(socket, 1_000_000);
    socket.readyState = 2; // CLOSING
    expect(await state(queue.send('late'))).toBe(`rejected: ${ConnectionClosedError.name}`);
    expect(socket.sent).toEqual([]);
  });

  it('hands held frames to the socket urgent first, never past a frame of their own request (issue #42)', async () => {
    const socket = new FakeSocket();
    const { queue } = queueOf(socket, EAGER_BUFFER_BYTES);
    socket.bufferedAmount = 2 * EAGER_BUFFER_BYTES; // full: everything below waits
    const first = queue.send('first'); // nothing awaits a callback: written at once
    const progress = (n: number) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/progress',
      params: { progressToken: 't', progress: n },
    });
    const sends = [first];
    for (let n = 0; n < 100; n++) sends.push(queue.send(`p${n}`, progress(n), { relatedRequestId: 1 }));
    sends.push(queue.send('result 2', { jsonrpc: '2.0', id: 2, result: {} }));
    sends.push(queue.send('result 1', { jsonrpc: '2.0', id: 1, result: {} }, { priority: 'urgent' }));
    sends.push(queue.send('ping', { jsonrpc: '2.0', id: 9, method: 'ping' }));
    expect(socket.sent).toEqual(['first']);
    socket.bufferedAmount = 0;
    while (socket.callbacks.length > 0) socket.complete(1);
    await Promise.all(sends);
    expect(socket.sent.slice(0, 3)).toEqual(['first', 'ping', 'result 2']);
    expect(socket.sent.slice(3)).toEqual([...Array.from({ length: 100 }, (_, n) => `p${n}`), 'result 1']);
  });
});
