import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { BIG_TOOL, bigText, ECHO_TOOL } from '../../payload.js';

/** The benchmark server on SDK v1; v1 needs one `McpServer` per connection. */
export function createV1Server(): McpServer {
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool(ECHO_TOOL, { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(BIG_TOOL, { inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: bigText() }],
  }));
  return server;
}
