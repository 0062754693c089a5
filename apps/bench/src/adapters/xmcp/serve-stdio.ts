import { StdioServerTransport } from '@x/transport-stdio';
import type { ServerHandle } from '../types.js';
import { createXServer } from './definition.js';

export async function serve(): Promise<ServerHandle> {
  const server = createXServer();
  await server.connect(new StdioServerTransport({ exitOnClose: true }));
  return { close: async () => {} };
}
