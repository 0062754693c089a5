import type { FrameSink } from '@x/protocol/http';
import { describe, expect, it } from 'vitest';
import { SessionStream } from '../src/server/session-stream.js';
import { STREAM_HIGH_WATER_BYTES } from '../src/server/sse-sink.js';

/** A sink that records what it gets and says "behind" while `full` is set. */
class RecordingSink implements FrameSink {
  written: string[] = [];
  ended = false;
  destroyed = false;
  full = false;
  writableLength = 0;
  write(chunk: string): boolean {
    this.written.push(chunk);
    return !this.full;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

function bound(stream: SessionStream): { drained: number; gone: number } {
  const seen = { drained: 0, gone: 0 };
  stream.bind({ drained: () => seen.drained++, gone: () => seen.gone++ });
  return seen;
}

describe('SessionStream', () => {
  it('holds frames until a sink attaches, then writes them in one write and the rest as they come', () => {
    const stream = new SessionStream();
    bound(stream);
    stream.write('event: endpoint\n\n');
    stream.write('data: 1\n\n');
    expect(stream.bufferedBytes).toBe('event: endpoint\n\ndata: 1\n\n'.length);
    const sink = new RecordingSink();
    expect(stream.attach(sink)).toBe(true);
    stream.write('data: 2\n\n');
    expect(sink.written).toEqual(['event: endpoint\n\ndata: 1\n\n', 'data: 2\n\n']);
    stream.end();
    expect(sink.ended).toBe(true);
    expect(() => stream.write('late')).toThrow(/closed/);
  });

  it('is congested while the sink is behind and tells the session when it drained', () => {
    const stream = new SessionStream();
    const seen = bound(stream);
    const sink = new RecordingSink();
    expect(stream.attach(sink)).toBe(false);
    sink.full = true;
    stream.write('data: big\n\n');
    expect(stream.congested).toBe(true);
    stream.drained();
    expect(stream.congested).toBe(false);
    expect(seen.drained).toBe(1);
  });

  it('counts held frames against the high-water mark before anything attached', () => {
    const stream = new SessionStream();
    bound(stream);
    stream.write('x'.repeat(STREAM_HIGH_WATER_BYTES - 1));
    expect(stream.congested).toBe(false);
    stream.write('x');
    expect(stream.congested).toBe(true);
  });

  it('reports the client gone once when abandoned, and destroys a sink attached after an abort', () => {
    const stream = new SessionStream();
    const seen = bound(stream);
    stream.abandon();
    stream.abandon();
    expect(seen.gone).toBe(1);
    const aborted = new SessionStream();
    bound(aborted);
    aborted.write('data: dropped\n\n');
    aborted.abort(new Error('gone'));
    expect(aborted.closed).toBe(true);
    const sink = new RecordingSink();
    expect(aborted.attach(sink)).toBe(false);
    expect(sink.destroyed).toBe(true);
    expect(sink.written).toEqual([]);
  });

  it('reads as a Web stream (held frames first) whose cancel is the client going away', async () => {
    const stream = new SessionStream();
    const seen = bound(stream);
    stream.write('event: endpoint\n\n');
    const reader = stream.stream.getReader();
    stream.write('data: 1\n\n');
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('event: endpoint\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: 1\n\n');
    expect(() => stream.attach(new RecordingSink())).toThrow(/in use/);
    await reader.cancel();
    expect(seen.gone).toBe(1);
  });

  it('ends a Web stream that closed before it was read after the held frames', async () => {
    const stream = new SessionStream();
    bound(stream);
    stream.write('data: last\n\n');
    stream.end();
    expect(await new Response(stream.stream).text()).toBe('data: last\n\n');
  });
});
