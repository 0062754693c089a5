import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { sessionOf } from '../session-of.js';
import type { BenchSession, ServerTarget } from '../types.js';

export async function connectV1(transport: Transport): Promise<BenchSession> {
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
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
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      return new StdioClientTransport({ command: target.command.command, args: target.command.args });
    }
    case 'http-sse':
    case 'http-json': {
      const { StreamableHTTPClientTransport } = await import(
        '@modelcontextprotocol/sdk/client/streamableHttp.js'
      );
      return new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    }
    case 'legacy-sse': {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      return new SSEClientTransport(new URL(`${base}/sse`));
    }
    case 'grpc':
      throw new Error('v1 has no gRPC transport');
    case 'ws': {
      const { WebSocketClientTransport } = await import('@modelcontextprotocol/sdk/client/websocket.js');
      // v1's client needs a global `WebSocket`, which Node 20 lacks; undici's is what Node 22 exposes.
      const { WebSocket } = await import('undici');
      (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
      return new WebSocketClientTransport(new URL(`ws://127.0.0.1:${target.port}/`));
    }
  }
}
