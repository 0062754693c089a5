import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BIG_TOOL, bigText, ECHO_TOOL } from '../../payload.js';

/** The benchmark server on SDK v2; like v1 it takes one `McpServer` per connection. */
export function createV2Server(): McpServer {
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool(ECHO_TOOL, { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(BIG_TOOL, { inputSchema: z.object({}) }, async () => ({
    content: [{ type: 'text', text: bigText() }],
  }));
  return server;
}
