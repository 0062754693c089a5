import { McpServer } from '@x/server';
import { z } from 'zod';
import { BIG_TOOL, bigText, ECHO_TOOL } from '../../payload.js';

/** The benchmark server: an echo tool and a 1 MiB tool, both with zod input schemas. */
export function createXServer(): McpServer {
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool(ECHO_TOOL, { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(BIG_TOOL, { inputSchema: z.object({}) }, () => ({
    content: [{ type: 'text', text: bigText() }],
  }));
  return server;
}
