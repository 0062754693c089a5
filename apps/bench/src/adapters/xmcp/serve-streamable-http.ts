import { createServer } from 'node:http';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { listenLoopback } from '../raw/http-listen.js';
import type { ServeOptions, ServerHandle } from '../types.js';
import { createXServer } from './definition.js';
import { sessionLimit } from './session-limit.js';

/** One server definition for every session (DESIGN §5). */
export async function serve(mode: 'json' | 'sse', options: ServeOptions = {}): Promise<ServerHandle> {
  const server = createXServer();
  const limit = sessionLimit(options);
  const handler = createStreamableHttpHandler({
    onsession: (transport) => server.connect(transport).then(() => {}),
    enableJsonResponse: mode === 'json',
    // W4/W5 open 200 sessions from one address in a burst, past the default per-caller rate limit.
    sessionRateLimit: false,
    // W6 holds 10,000 sessions (or listen streams) and the probe's: one past the defaults.
    maxSessions: limit,
    maxListenStreams: limit,
  });
  return listenLoopback(createServer(toNodeHandler(handler)), () => void handler.close());
}
