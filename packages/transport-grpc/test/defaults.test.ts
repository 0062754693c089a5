import * as kit from '@x/protocol/transport';
import { describe, expect, it } from 'vitest';
import * as grpc from '../src/index.js';

// Issue #36: the same limit has the same default on every transport.
describe('limit defaults', () => {
  it('are the shared constants of the transport kit', () => {
    expect(grpc.DEFAULT_MAX_MESSAGE_BYTES).toBe(kit.DEFAULT_MAX_MESSAGE_BYTES);
    expect(grpc.DEFAULT_MAX_CONNECTED_SESSIONS).toBe(kit.DEFAULT_MAX_CONNECTED_SESSIONS);
    expect(grpc.DEFAULT_MAX_QUEUED_BYTES).toBe(kit.DEFAULT_MAX_QUEUED_BYTES);
    expect(grpc.DEFAULT_RATE_LIMIT).toBe(kit.DEFAULT_RATE_LIMIT);
  });

  it('name the rest once, with the values of the WebSocket transport where the option is the same', () => {
    expect(grpc.DEFAULT_MAX_BUFFERED_BYTES).toBe(kit.DEFAULT_MAX_BUFFERED_BYTES);
    expect(grpc.DEFAULT_SEND_STALL_TIMEOUT_MS).toBe(kit.DEFAULT_SEND_STALL_TIMEOUT_MS);
    expect(grpc.DEFAULT_KEEP_ALIVE_MS).toBe(kit.DEFAULT_KEEP_ALIVE_MS);
    // One drain default with Streamable HTTP's `drain()` (was 10 s here).
    expect(grpc.DEFAULT_DRAIN_TIMEOUT_MS).toBe(kit.DEFAULT_DRAIN_TIMEOUT_MS);
    expect(grpc.DEFAULT_DRAIN_TIMEOUT_MS).toBe(30_000);
  });

  it('refuses plaintext to a host that is not loopback unless allowInsecure', () => {
    expect(() => new grpc.GrpcClientTransport('mcp.example.com:50051')).toThrow(grpc.InsecureTargetError);
    expect(() => new grpc.GrpcClientTransport('10.0.0.1:50051')).toThrow(/allowInsecure/);
    expect(
      () => new grpc.GrpcClientTransport('mcp.example.com:50051', { allowInsecure: true }),
    ).not.toThrow();
    expect(() => new grpc.GrpcClientTransport('grpcs://mcp.example.com:443')).not.toThrow();
    expect(() => new grpc.GrpcClientTransport('localhost:50051')).not.toThrow();
    expect(() => new grpc.GrpcClientTransport('[::1]:50051')).not.toThrow();
  });
});
