import { startHttpServer } from '@x/test-kit';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler as toSseNodeHandler } from '@x/transport-sse/node';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import express from 'express';
import { afterEach, describe, it } from 'vitest';
import { createTestAuth } from '../fixtures/framework-auth.js';
import { expectMountedWithAuth } from '../fixtures/framework-checks.js';
import { createMcpServer } from '../fixtures/mcp-app.js';

// Issue 30, item 3: the handlers mounted in Express 5 as the transport README shows, behind
// `express.json()` (the adapter takes the body the parser already read from `req.body`), with
// `bearerAuth` of `@x/auth` as the `authenticate` hook.

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

describe('Express 5', () => {
  it.each([
    ['with express.json()', true],
    ['without a body parser', false],
  ])('mounts Streamable HTTP (both eras) and legacy SSE with the auth hook, %s', async (_name, parse) => {
    const { authenticate, token } = await createTestAuth();
    const server = createMcpServer('express');
    const mcp = createStreamableHttpHandler({ onsession: (t) => server.connect(t), authenticate });
    const sse = createSseHandler({ onsession: (t) => server.connect(t), authenticate });
    cleanup.push(
      () => mcp.close(),
      () => sse.close(),
    );

    // The snippet of packages/transport-streamable-http/README.md, "Mount in a framework".
    const app = express();
    if (parse) app.use(express.json());
    app.all('/mcp', toNodeHandler(mcp));
    app.all('/sse', toSseNodeHandler(sse));

    const http = await startHttpServer(app);
    cleanup.unshift(() => http.close());
    await expectMountedWithAuth('express', { mcp: `${http.url}/mcp`, sse: `${http.url}/sse` }, token);
  });
});
