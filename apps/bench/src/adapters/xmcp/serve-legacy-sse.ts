import { createServer } from 'node:http';
import { SseServer } from '@x/transport-sse';
import { createNodeHandler } from '@x/transport-sse/node';
import { listenLoopback } from '../raw/http-listen.js';
import type { ServerHandle } from '../types.js';
import { createXServer } from './definition.js';

export async function serve(): Promise<ServerHandle> {
  const server = createXServer();
  const sse = new SseServer({ onsession: (transport) => server.connect(transport).then(() => {}) });
  const handle = createNodeHandler(sse);
  return listenLoopback(
    createServer((request, response) => void handle(request, response)),
    () => void sse.close(),
  );
}
