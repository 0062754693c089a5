import type { ServeFn } from '../types.js';

/** Loads only the chosen transport's server module, so a server process holds nothing else. */
export const serve: ServeFn = async (transport) => {
  switch (transport) {
    case 'stdio':
      return (await import('./stdio.js')).serveRawStdio();
    case 'http-sse':
      return (await import('./streamable-http-server.js')).serveRawStreamableHttp('sse');
    case 'http-json':
      return (await import('./streamable-http-server.js')).serveRawStreamableHttp('json');
    case 'legacy-sse':
      return (await import('./legacy-sse-server.js')).serveRawLegacySse();
    case 'ws':
      return (await import('./ws.js')).serveRawWs();
    case 'grpc':
      return (await import('./grpc.js')).serveRawGrpc();
  }
};
