import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../src/line-writer.js';
import { afterNextTick } from '@x/test-kit';

/** A stream that records how its bytes were handed over: one call per `_write`/`_writev`. */
function recordingStream(): { stream: Writable; calls: string[][] } {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      calls.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      calls.push(chunks.map(({ chunk }) => String(chunk)));
      callback();
    },
  });
  return { stream, calls };
}

describe('LineWriter', () => {
  it('sends the first line of a turn at once and the rest of the turn as one write, in order', async () => {
    const { stream, calls } = recordingStream();
    const writer = new LineWriter(stream);
    const sent = ['a\n', 'b\n', 'c\n'].map((line) => writer.write(line));
    expect(calls).toEqual([['a\n']]); // the peer can start on the first line while this turn goes on
    await afterNextTick();
    expect(calls).toEqual([['a\n'], ['b\n', 'c\n']]);
    await Promise.all(sent);
    writer.write('d\n');
    expect(calls).toEqual([['a\n'], ['b\n', 'c\n'], ['d\n']]);
    writer.write('e\n');
    writer.write('f\n');
    await afterNextTick();
    expect(calls).toEqual([['a\n'], ['b\n', 'c\n'], ['d\n'], ['e\n', 'f\n']]);
  });

  it('ends a turn of one line with a microtask: a line written after it leaves at once', async () => {
    const { stream, calls } = recordingStream();
    const writer = new LineWriter(stream);
    await writer.write('a\n');
    await Promise.resolve();
    void writer.write('b\n'); // a new turn: not held for a tick
    expect(calls).toEqual([['a\n'], ['b\n']]);
  });

  it('holds lines written from promise callbacks of a corked turn until the tick', async () => {
    const { stream, calls } = recordingStream();
    const writer = new LineWriter(stream);
    void writer.write('a\n');
    void writer.write('b\n'); // corks
    await Promise.resolve();
    await Promise.resolve(); // the turn's microtask has run, the tick has not
    void writer.write('c\n');
    expect(calls).toEqual([['a\n']]);
    await afterNextTick();
    expect(calls).toEqual([['a\n'], ['b\n', 'c\n']]);
  });

  it('flush() waits for corked lines, and end() still delivers them', async () => {
    const { stream, calls } = recordingStream();
    const writer = new LineWriter(stream);
    void writer.write('x\n');
    await writer.flush();
    expect(calls.flat().filter(Boolean)).toEqual(['x\n']); // flush's own empty write aside
    void writer.write('y\n');
    stream.end();
    await new Promise((resolve) => stream.once('finish', resolve));
    expect(calls.flat().filter(Boolean)).toEqual(['x\n', 'y\n']);
  });

  it('waits for drain past the bound, counting lines not yet handed over', async () => {
    const { stream } = recordingStream();
    const writer = new LineWriter(stream, { maxBufferedBytes: 16 });
    // The high-water mark (16 KiB by default) is the floor of the bound.
    const big = 'z'.repeat(20 * 1024);
    void writer.write('first\n'); // handed over at once: nothing queued
    const second = writer.write(big); // corked until the tick: queued, past the bound
    let settled = false;
    void second.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await afterNextTick();
    await second;
    expect(settled).toBe(true);
  });

  it('past the mark, holds lines and hands them over on drain urgent first, same-request lines in order', async () => {
    // A pipe whose reader is paused: writes complete only when released.
    const lines: string[] = [];
    const held: (() => void)[] = [];
    const stream = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        held.push(callback);
      },
      writev(chunks, callback) {
        for (const { chunk } of chunks) lines.push(...String(chunk).split('\n').filter(Boolean));
        held.push(callback);
      },
    });
    const writer = new LineWriter(stream, { maxBufferedBytes: 1024 });
    const progress = (n: number) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/progress',
      params: { progressToken: 1, progress: n },
    });
    const sent: Promise<void>[] = [];
    // Backs the stream up, then queues 200 progress lines of request 1 and its result.
    sent.push(writer.write(`${'x'.repeat(2000)}\n`));
    for (let n = 0; n < 200; n++) {
      sent.push(writer.write(`progress ${n}\n`, progress(n), { relatedRequestId: 1 }));
    }
    sent.push(writer.write('result 1\n', { jsonrpc: '2.0', id: 1, result: {} }, { priority: 'urgent' }));
    sent.push(writer.write('pong\n', { jsonrpc: '2.0', id: 'p', result: {} }, { priority: 'urgent' }));
    sent.push(writer.write('plain\n'));
    await afterNextTick();
    expect(lines).toEqual(['x'.repeat(2000)]);
    // The reader resumes.
    while (held.length > 0 || lines.length < 204) {
      await afterNextTick();
      held.shift()?.();
    }
    await Promise.all(sent);
    expect(lines[1]).toBe('pong'); // overtook 200 progress lines and the plain one
    expect(lines[2]).toBe('plain'); // normal, before bulk
    expect(lines.slice(3)).toEqual([...Array.from({ length: 200 }, (_, n) => `progress ${n}`), 'result 1']);
  });

  it('without a message to read a class from, keeps write order past the mark', async () => {
    const lines: string[] = [];
    const held: (() => void)[] = [];
    const stream = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        held.push(callback);
      },
    });
    const writer = new LineWriter(stream, { maxBufferedBytes: 16 });
    const sent = ['a'.repeat(20), 'b', 'c', 'd'].map((line) => writer.write(`${line}\n`));
    while (lines.length < 4 || held.length > 0) {
      await afterNextTick();
      held.shift()?.();
    }
    await Promise.all(sent);
    expect(lines.join('')).toBe(`${'a'.repeat(20)}\nb\nc\nd\n`);
  });

  it('refuses past maxQueuedBytes of held lines, naming the option', async () => {
    const stream = new Writable({ highWaterMark: 16, write() {} });
    let stalled: Error | undefined;
    const writer = new LineWriter(stream, {
      maxBufferedBytes: 16,
      maxQueuedBytes: 100,
      onstall: (error) => {
        stalled = error;
      },
    });
    const first = writer.write(`${'a'.repeat(20)}\n`);
    const second = writer.write(`${'b'.repeat(60)}\n`);
    const third = writer.write(`${'c'.repeat(60)}\n`);
    await expect(third).rejects.toMatchObject({ name: 'PeerNotReadingError', option: 'maxQueuedBytes' });
    await expect(first).rejects.toBe(stalled);
    await expect(second).rejects.toBe(stalled);
    expect(writer.flush()).resolves.toBeUndefined();
  });
});
