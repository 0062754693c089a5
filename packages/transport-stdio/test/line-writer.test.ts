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
});
