import { Client } from '@x/client';
import type { Transport } from '@x/protocol';
import { sessionOf } from '../session-of.js';
import type { BenchSession, ServerTarget } from '../types.js';

/**
 * The `x-mcp` column is pinned to the legacy era (newest legacy revision), like raw and the official
 * SDKs, so every column moves the same messages (no `server/discover` probe, no per-request `_meta`).
 * `x-mcp-modern` pins the 2026-07-28 era instead.
 */
export async function connectX(transport: Transport, era: 'legacy' | 'modern'): Promise<BenchSession> {
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { protocolVersion: era });
  await client.connect(transport);
  return sessionOf(client);
}

export async function transportFor(target: ServerTarget): Promise<Transport> {
  const base = `http://127.0.0.1:${target.port}`;
  switch (target.transport) {
    case 'in-memory':
      throw new Error('in-memory goes through inMemory()');
    case 'stdio': {
      if (target.command === undefined) throw new Error('stdio target needs a command');
      const { StdioClientTransport } = await import('@x/transport-stdio');
      return new StdioClientTransport({ command: target.command.command, args: target.command.args });
    }
    case 'http-sse':
    case 'http-json': {
      const { StreamableHttpClientTransport } = await import('@x/transport-streamable-http');
      return new StreamableHttpClientTransport(`${base}/mcp`);
    }
    case 'legacy-sse': {
      const { SseClientTransport } = await import('@x/transport-sse');
      return new SseClientTransport(`${base}/sse`);
    }
    case 'ws': {
      const { WebSocketClientTransport } = await import('@x/transport-ws');
      return new WebSocketClientTransport(`ws://127.0.0.1:${target.port}/`);
    }
    case 'grpc': {
      const { GrpcClientTransport } = await import('@x/transport-grpc');
      return new GrpcClientTransport(`grpc://127.0.0.1:${target.port}`);
    }
  }
}
