import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { ServerHandle } from '../types.js';
import { createV2Server } from './definition.js';

export async function serve(): Promise<ServerHandle> {
  process.stdin.once('end', () => process.exit(0));
  await createV2Server().connect(new StdioServerTransport());
  return { close: async () => {} };
}
