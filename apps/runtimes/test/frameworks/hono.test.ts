import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createSseHandler } from '@x/transport-sse';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { Hono } from 'hono';
import { afterTurn, waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestAuth } from '../fixtures/framework-auth.js';
import { expectMountedWithAuth } from '../fixtures/framework-checks.js';
import { createMcpServer } from '../fixtures/mcp-app.js';

// Issue 30, item 3: the Web-standard handlers mounted in Hono 4 as the transport README shows (Hono
// hands over the Web `Request` and sends the `Response`; no Node adapter), served on Node by
// @hono/node-server, with `bearerAuth` of `@x/auth` as the `authenticate` hook.

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

describe('Hono 4', () => {
  it('mounts Streamable HTTP (both eras) and legacy SSE with the auth hook', async () => {
    const { authenticate, token } = await createTestAuth();
    const server = createMcpServer('hono');
    const mcp = createStreamableHttpHandler({ onsession: (t) => server.connect(t), authenticate });
    const sse = createSseHandler({ onsession: (t) => server.connect(t), authenticate });

    // The snippet of packages/transport-streamable-http/README.md, "Mount in a framework".
    const app = new Hono();
    app.all('/mcp', (c) => mcp(c.req.raw, { remoteAddress: getConnInfo(c).remote.address }));
    app.all('/sse', (c) => sse(c.req.raw, { remoteAddress: getConnInfo(c).remote.address }));

    const http = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
    });
    cleanup.push(
      () => mcp.close(),
      () => sse.close(),
      () =>
        new Promise<void>((resolve) => {
          if ('closeAllConnections' in http) http.closeAllConnections();
          http.close(() => resolve());
        }),
    );
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const logged = vi.spyOn(console, 'error');
    cleanup.push(async () => logged.mockRestore());
    await expectMountedWithAuth('hono', { mcp: `${base}/mcp`, sse: `${base}/sse` }, token);
    // The legacy SSE client left by closing its GET stream; @hono/node-server learns it from the request
    // signal and keeps reading the body: an errored body would be logged with a stack trace per client.
    await waitFor(() => sse.sessionCount === 0, { what: 'the SSE session to end' });
    await afterTurn();
    expect(logged).not.toHaveBeenCalled();
  });
});
