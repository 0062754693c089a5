import { InMemoryTransport } from '@x/protocol';
import type { SdkAdapter } from '../types.js';
import { connectX, transportFor } from './connect.js';
import { createXServer } from './definition.js';

/** x-mcp's client and in-process pair, speaking one era (the server serves both). */
function xmcpAdapter(era: 'legacy' | 'modern'): SdkAdapter {
  return {
    sdk: era === 'legacy' ? 'x-mcp' : 'x-mcp-modern',
    inMemory: async () => {
      const server = createXServer();
      return {
        connect: async () => {
          const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
          await server.connect(serverSide);
          return connectX(clientSide, era);
        },
        close: async () => {},
      };
    },
    connect: async (target) => connectX(await transportFor(target), era),
  };
}

export const adapter = xmcpAdapter('legacy');
export const modernAdapter = xmcpAdapter('modern');
