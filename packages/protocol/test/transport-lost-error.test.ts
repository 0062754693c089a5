import { describe, expect, it } from 'vitest';
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
});
