import { createServer } from 'node:http';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler } from '@x/transport-sse/node';
import { listenLoopback } from '../raw/http-listen.js';
import type { ServerHandle } from '../types.js';
import { createXServer } from './definition.js';

export async function serve(): Promise<ServerHandle> {
  const server = createXServer();
  const sse = createSseHandler({
    onsession: (transport) => server.connect(transport).then(() => {}),
    // W4 and W5 open 200 sessions from one address, past the default per-caller rate limit (10/s, burst 50).
    sessionRateLimit: false,
  });
  const handle = toNodeHandler(sse);
  return listenLoopback(
    createServer((request, response) => void handle(request, response)),
    () => void sse.close(),
  );
}
