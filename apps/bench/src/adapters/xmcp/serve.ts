import type { ServeFn } from '../types.js';

/** Loads only the chosen transport's server module, so a server process holds nothing else. */
export const serve: ServeFn = async (transport, options = {}) => {
  switch (transport) {
    case 'stdio':
      return (await import('./serve-stdio.js')).serve();
    case 'http-sse':
      return (await import('./serve-streamable-http.js')).serve('sse', options);
    case 'http-json':
      return (await import('./serve-streamable-http.js')).serve('json', options);
    case 'legacy-sse':
      return (await import('./serve-legacy-sse.js')).serve();
    case 'ws':
      return (await import('./serve-ws.js')).serve(options);
    case 'grpc':
      return (await import('./serve-grpc.js')).serve(options);
  }
};
