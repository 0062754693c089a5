import { Client, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { openWs, PlainWsTransport } from '../plain-ws-transport.js';
import { sessionOf } from '../session-of.js';
import type { BenchSession, ServerTarget } from '../types.js';

/** v2's client in its default (legacy) version negotiation, like the other columns. */
export async function connectV2(transport: Transport): Promise<BenchSession> {
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
      const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
      return new StdioClientTransport({ command: target.command.command, args: target.command.args });
    }
    case 'http-sse':
    case 'http-json': {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      return new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    }
    case 'legacy-sse':
      throw new Error('v2 has no legacy SSE server');
    case 'grpc':
      throw new Error('v2 has no gRPC transport');
    case 'ws': {
      // v2 ships no WebSocket client either.
      const transport = new PlainWsTransport<JSONRPCMessage>(await openWs(`ws://127.0.0.1:${target.port}/`));
      return transport;
    }
  }
}
