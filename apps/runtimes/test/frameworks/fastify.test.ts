import type { AddressInfo } from 'node:net';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler as toSseNodeHandler } from '@x/transport-sse/node';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import Fastify from 'fastify';
import { afterEach, describe, it } from 'vitest';
import { createTestAuth } from '../fixtures/framework-auth.js';
import { expectMountedWithAuth } from '../fixtures/framework-checks.js';
import { createMcpServer } from '../fixtures/mcp-app.js';

// Issue 30, item 3: the handlers mounted in Fastify 5 as the transport README shows (the route hands
// the raw request and response to the Node adapter, with the body Fastify's JSON parser already read),
// with `bearerAuth` of `@x/auth` as the `authenticate` hook.

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

describe('Fastify 5', () => {
  it('mounts Streamable HTTP (both eras) and legacy SSE with the auth hook', async () => {
    const { authenticate, token } = await createTestAuth();
    const server = createMcpServer('fastify');
    const mcp = createStreamableHttpHandler({ onsession: (t) => server.connect(t), authenticate });
    const sse = createSseHandler({ onsession: (t) => server.connect(t), authenticate });

    // No `forceCloseConnections`: `app.close()` is graceful, so a client of this process that left a
    // socket open after its `close()` would hold it (the legacy SSE client once did, for 60 s).
    const app = Fastify();
    // The snippet of packages/transport-streamable-http/README.md, "Mount in a framework".
    const mcpNode = toNodeHandler(mcp);
    app.all('/mcp', (request, reply) => {
      reply.hijack(); // the adapter writes the response itself
      Object.assign(request.raw, { body: request.body }); // the body Fastify's parser read
      return mcpNode(request.raw, reply.raw);
    });
    const sseNode = toSseNodeHandler(sse);
    app.all('/sse', (request, reply) => {
      reply.hijack();
      Object.assign(request.raw, { body: request.body });
      return sseNode(request.raw, reply.raw);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    cleanup.push(
      () => mcp.close(),
      () => sse.close(),
      () => app.close(),
    );
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await expectMountedWithAuth('fastify', { mcp: `${base}/mcp`, sse: `${base}/sse` }, token);
  });
});
