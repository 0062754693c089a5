import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import type { McpServer } from '@x/server';
import { type ParamHeader, paramHeadersOf } from '@x/transport-streamable-http';

/**
 * The `x-mcp-header` mirrors of every tool the server publishes, for the HTTP handler's `paramHeaders`
 * option (2026-07-28 `Mcp-Param-*` validation). `McpServer` has no lookup of a tool's inputSchema by
 * name, so the tool list is read once over an in-memory connection, as any client would see it.
 */
export async function paramHeaderIndex(server: McpServer): Promise<Map<string, readonly ParamHeader[]>> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'param-header-index', version: '0.0.0' }, { protocolVersion: 'legacy' });
  await client.connect(clientSide);
  const index = new Map<string, readonly ParamHeader[]>();
  try {
    for await (const tool of client.iterateTools()) {
      const headers = paramHeadersOf(tool.inputSchema);
      if (headers.length > 0) index.set(tool.name, headers);
    }
  } finally {
    await client.close();
  }
  return index;
}
