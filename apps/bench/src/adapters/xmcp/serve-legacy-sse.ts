import { createServer } from 'node:http';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler } from '@x/transport-sse/node';
import { listenLoopback } from '../raw/http-listen.js';
import type { ServerHandle } from '../types.js';
import { createXServer } from './definition.js';

export async function serve(): Promise<ServerHandle> {
  const server = createXServer();
  // W4/W5 open hundreds of sessions from one client address: the per-caller limit would refuse them (429).
  const sse = createSseHandler({
    onsession: (transport) => server.connect(transport).then(() => {}),
    sessionRateLimit: false,
  });
  const handle = toNodeHandler(sse);
  return listenLoopback(
    createServer((request, response) => void handle(request, response)),
    () => void sse.close(),
  );
}
