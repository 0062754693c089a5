import { createServer } from 'node:http';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { listenLoopback } from '../raw/http-listen.js';
import type { ServerHandle } from '../types.js';
import { createXServer } from './definition.js';

/** One server definition for every session (DESIGN §5). */
export async function serve(mode: 'json' | 'sse'): Promise<ServerHandle> {
  const server = createXServer();
  const handler = createStreamableHttpHandler({
    onsession: (transport) => server.connect(transport).then(() => {}),
    enableJsonResponse: mode === 'json',
    // W4/W5 open 200 sessions from one address in a burst, past the default per-caller rate limit.
    sessionRateLimit: false,
  });
  return listenLoopback(createServer(toNodeHandler(handler)), () => void handler.close());
}
