import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { SdkAdapter } from '../types.js';
import { connectV1, transportFor } from './connect.js';
import { createV1Server } from './definition.js';

/** The official SDK 1.x (`@modelcontextprotocol/sdk`). */
export const adapter: SdkAdapter = {
  sdk: 'v1',
  inMemory: async () => ({
    connect: async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createV1Server().connect(serverSide);
      return connectV1(clientSide);
    },
    close: async () => {},
  }),
  connect: async (target) => connectV1(await transportFor(target)),
};
