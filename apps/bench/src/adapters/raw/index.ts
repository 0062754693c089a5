import type { SdkAdapter } from '../types.js';
import { rawInMemory } from './in-memory.js';

/**
 * The reference: the same JSON-RPC bytes, hand-written, no MCP layer. Transport modules load on
 * demand so a raw server process holds only what its transport needs (its RSS is the baseline).
 */
export const adapter: SdkAdapter = {
  sdk: 'raw',
  inMemory: rawInMemory,
  connect: async (target) => {
    switch (target.transport) {
      case 'in-memory':
        throw new Error('in-memory goes through inMemory()');
      case 'stdio':
        return (await import('./stdio.js')).connectRawStdio(target);
      case 'http-sse':
      case 'http-json':
        return (await import('./streamable-http-client.js')).connectRawStreamableHttp(target);
      case 'legacy-sse':
        return (await import('./legacy-sse-client.js')).connectRawLegacySse(target);
      case 'ws':
        return (await import('./ws.js')).connectRawWs(target);
      case 'grpc':
        return (await import('./grpc.js')).connectRawGrpc(target);
    }
  },
};
