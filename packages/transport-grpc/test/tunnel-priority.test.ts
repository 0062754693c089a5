import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import type { JsonRpcLine } from '../src/proto-files.js';
import { type FrameChannel, TunnelStream } from '../src/tunnel-stream.js';

/** A gRPC call whose writes complete only when the test says so (HTTP/2 flow control closed). */
class HeldChannel implements FrameChannel {
  readonly lines: string[] = [];
  readonly #callbacks: Array<(error: Error | null | undefined) => void> = [];

  on(): this {
    return this;
  }

  write(frame: JsonRpcLine, callback: (error: Error | null | undefined) => void): boolean {
    this.lines.push(frame.line);
    this.#callbacks.push(callback);
    return false;
  }

  /** Completes the oldest write; false when none is pending. */
  complete(): boolean {
    const callback = this.#callbacks.shift();
    callback?.(null);
    return callback !== undefined;
  }
}

describe('TunnelStream send queue (issue #42)', () => {
  it('hands waiting messages to gRPC urgent first, each request’s messages in order', async () => {
    const channel = new HeldChannel();
    const tunnel = new TunnelStream(
      channel,
      {
        maxMessageBytes: 1 << 20,
        maxBufferedBytes: 64,
        maxQueuedBytes: 1 << 20,
        sendStallTimeoutMs: 0,
        maxNestingDepth: undefined,
      },
      { message: () => {}, error: () => {}, fail: () => {} },
    );
    const sends: Promise<void>[] = [];
    const send = (message: JSONRPCMessage, options?: Parameters<TunnelStream['send']>[1]) =>
      sends.push(tunnel.send(message, options));
    send({ jsonrpc: '2.0', id: 0, result: { text: 'x'.repeat(100) } }); // fills maxBufferedBytes
    for (let n = 1; n <= 50; n++) {
      const params = { progressToken: 't', progress: n };
      send({ jsonrpc: '2.0', method: 'notifications/progress', params }, { relatedRequestId: 1 });
    }
    send({ jsonrpc: '2.0', id: 1, result: {} }, { relatedRequestId: 1, priority: 'urgent' });
    send({ jsonrpc: '2.0', id: 2, result: {} }, { relatedRequestId: 2 });
    send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
    expect(channel.lines).toHaveLength(1);
    while (channel.complete()) {
      // each completed write lets the next one go
    }
    await Promise.all(sends);
    const order = channel.lines.map((line) => {
      const message = JSON.parse(line) as { id?: unknown; params?: { progress: number } };
      return message.id === undefined ? `p${message.params?.progress}` : String(message.id);
    });
    expect(order.slice(0, 3)).toEqual(['0', 'ping', '2']);
    expect(order.slice(3)).toEqual([...Array.from({ length: 50 }, (_, i) => `p${i + 1}`), '1']);
    expect(tunnel.pendingBytes).toBe(0);
  });
});
