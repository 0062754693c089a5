import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ServerHandle } from '../types.js';
import { createV1Server } from './definition.js';

export async function serve(): Promise<ServerHandle> {
  const transport = new StdioServerTransport();
  // v1's stdio transport does not end the process on EOF; a real v1 server exits when stdin closes.
  process.stdin.once('end', () => process.exit(0));
  await createV1Server().connect(transport);
  return { close: async () => {} };
}
