import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { SdkAdapter } from '../types.js';
import { connectV2, transportFor } from './connect.js';
import { createV2Server } from './definition.js';

/** The official SDK 2.x (`@modelcontextprotocol/server` + `@modelcontextprotocol/client`). */
export const adapter: SdkAdapter = {
  sdk: 'v2',
  inMemory: async () => ({
    connect: async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createV2Server().connect(serverSide);
      return connectV2(clientSide);
    },
    close: async () => {},
  }),
  connect: async (target) => connectV2(await transportFor(target)),
};
