// The conformance server: the everything fixture (apps/examples) behind our Streamable HTTP endpoint, on
// http://127.0.0.1:$PORT/mcp. One endpoint serves both eras: legacy sessions (resumable through the
// event store, DELETE to end them) and stateless 2026-07-28 requests (CONFORMANCE.md §7, step 2).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEverythingServer } from '@x/examples/dist/everything-server.js';
import { createStreamableHttpHandler, InMemoryEventStore } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { paramHeaderIndex } from './server/param-header-index.js';

const PATH = '/mcp';
const port = Number(process.env['PORT'] ?? 3000);

const mcp = createEverythingServer();
const paramHeaders = await paramHeaderIndex(mcp);
const handler = createStreamableHttpHandler({
  onsession: (transport) => mcp.connect(transport),
  // server-sse-polling: the priming event and `retry` let the suite resume a closed stream by GET.
  eventStore: new InMemoryEventStore(),
  retryIntervalMs: 500,
  paramHeaders: (tool) => paramHeaders.get(tool),
  onerror: (error) => console.error('[server]', error),
});
// DNS-rebinding protection is the handler's default on loopback: a foreign Host or Origin gets 403.
const nodeHandler = toNodeHandler(handler);
const http = createServer((req, res) => {
  if (new URL(req.url ?? '/', 'http://localhost').pathname === PATH) nodeHandler(req, res);
  else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
});

http.listen(port, '127.0.0.1', () => {
  // PORT=0 picks a free port: print the one the OS chose.
  const { port: bound } = http.address() as AddressInfo;
  console.log(`conformance server on http://127.0.0.1:${bound}${PATH}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void handler.close().finally(() => {
      http.closeAllConnections();
      http.close(() => process.exit(0));
    });
  });
}
