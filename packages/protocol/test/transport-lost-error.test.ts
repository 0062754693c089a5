import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Protocol } from '../src/engine/index.js';
import { transportLossOf } from '../src/internal.js';
import { InMemoryTransport } from '../src/transports/in-memory-transport.js';
import {
  ConnectionClosedError,
  ErrorCode,
  McpError,
  TransportLostError,
  transportLostResponse,
} from '../src/index.js';

// One error for "the connection carrying this request was lost; it may have run" (issue 28): the
// WebSocket client's reconnect, the stdio client's restart and the client's FailoverTransport raise it.
describe('TransportLostError', () => {
  it('is what a transport-synthesized answer rejects with: the same instance, a -32000 ConnectionClosedError', () => {
    const lost = new TransportLostError('gone; the request may have run', {
      transport: 'websocket',
      data: { code: 1006 },
    });
    const response = transportLostResponse(7, lost);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: ErrorCode.ConnectionClosed,
        message: 'gone; the request may have run',
        data: { code: 1006 },
      },
    });
    // The wire form carries no marker (JSON.stringify sees a plain error response).
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);
    const rebuilt = McpError.fromError(response.error);
    expect(rebuilt).toBe(lost);
    expect(rebuilt).toBeInstanceOf(ConnectionClosedError);
    expect((rebuilt as TransportLostError).transport).toBe('websocket');
  });

  it('cannot be claimed by a peer: a -32000 from the wire stays an McpError', () => {
    const fromWire = JSON.parse(
      JSON.stringify(transportLostResponse(1, new TransportLostError('x', { data: { reconnecting: true } }))),
    ) as { error: { code: number; message: string; data?: unknown } };
    const error = McpError.fromError(fromWire.error);
    expect(error).not.toBeInstanceOf(TransportLostError);
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
  });

  it('survives an outgoingRequest interceptor that replaces it: the engine marks the replacement (transportLossOf)', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Protocol();
    await client.connect(a);
    // The peer never answers; the transport loses the request instead.
    b.onmessage = (message) => {
      if ('id' in message && 'method' in message) {
        a.onmessage?.(
          transportLostResponse(message.id, new TransportLostError('dropped', { transport: 'test' })),
        );
      }
    };
    await b.start();
    const frozen = Object.freeze(new McpError(ErrorCode.InternalError, 'frozen'));
    let replacement: unknown = new McpError(ErrorCode.InternalError, 'replaced');
    client.use({
      async outgoingRequest(call, next) {
        try {
          return await next(call);
        } catch {
          throw replacement;
        }
      },
    });
    const error = await client.request({ method: 'echo' }, z.object({})).catch((e: unknown) => e);
    expect(error).toBe(replacement);
    expect(error).not.toBeInstanceOf(TransportLostError);
    expect(transportLossOf(error)?.transport).toBe('test');
    // Invisible to JSON and to the error's own keys.
    expect(Object.keys(error as object)).not.toContain('x-mcp.transportLost');
    // A primitive or a frozen replacement cannot carry the mark; nothing throws.
    for (replacement of ['text', frozen]) {
      const other = await client.request({ method: 'echo' }, z.object({})).catch((e: unknown) => e);
      expect(other).toBe(replacement);
      expect(transportLossOf(other)).toBeUndefined();
    }
    // A peer's own -32000 is no loss.
    expect(transportLossOf(new ConnectionClosedError())).toBeUndefined();
    await client.close();
  });
});
