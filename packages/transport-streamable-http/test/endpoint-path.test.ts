import { describe, expect, it } from 'vitest';
import { initializeRequest, POST_HEADERS, raw, startServer } from './helpers.js';

// Issue #25, item 6: "an optional endpoint path (404 elsewhere)"; without it the handler answers
// every path, which is what a framework route wants.
describe('the path option', () => {
  it('answers 404 with a JSON-RPC body off the endpoint path, and serves the path itself', async () => {
    await using server = await startServer({ path: '/mcp' });
    const elsewhere = server.url.replace('/mcp', '/other');
    for (const method of ['POST', 'GET', 'DELETE', 'OPTIONS']) {
      const reply = await raw(elsewhere, {
        method,
        headers: POST_HEADERS,
        ...(method === 'POST' ? { body: initializeRequest() } : {}),
      });
      expect(reply.status).toBe(404);
      expect(reply.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Not Found: the MCP endpoint is /mcp' },
      });
    }
    // A query string is no other path.
    const served = await raw(`${server.url}?tenant=a`, { headers: POST_HEADERS, body: initializeRequest() });
    expect(served.status).toBe(200);
    expect(server.transports).toHaveLength(1);
  });

  it('serves every path when it is not set', async () => {
    await using server = await startServer();
    const reply = await raw(server.url.replace('/mcp', '/anything'), {
      headers: POST_HEADERS,
      body: initializeRequest(),
    });
    expect(reply.status).toBe(200);
  });
});
