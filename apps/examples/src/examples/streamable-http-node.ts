// Example: one McpServer behind a Streamable HTTP endpoint on `node:http`, reached by two clients at
// once: one negotiates the stateless 2026-07-28 era (no session), one is pinned to the legacy era and
// gets an `Mcp-Session-Id` session, which its close() ends with a DELETE. Both eras share one URL.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@x/client';
import { McpServer } from '@x/server';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { z } from 'zod';

const server = new McpServer({ name: 'http-example', version: '1.0.0' });
server.registerTool(
  'greet',
  { description: 'Greets someone', inputSchema: z.object({ name: z.string() }) },
  ({ name }, ctx) => ({ content: [{ type: 'text', text: `Hello, ${name} (${ctx.protocolVersion})` }] }),
);

// One handler for every connection: it hands each new server-side transport (a legacy session, or a
// single modern request) to the same McpServer.
const handler = createStreamableHttpHandler({ onsession: (transport) => server.connect(transport) });
const http = createServer(toNodeHandler(handler));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
console.log(`listening on ${url.href}`);

const modern = new Client({ name: 'modern-client', version: '1.0.0' });
const legacy = new Client({ name: 'legacy-client', version: '1.0.0' }, { protocolVersion: 'legacy' });
try {
  await modern.connect(new StreamableHttpClientTransport(url));
  await legacy.connect(new StreamableHttpClientTransport(url));
  assert.equal(modern.era, 'modern');
  assert.equal(legacy.era, 'legacy');
  // Only the legacy client holds a session; modern requests are stateless.
  assert.equal(handler.sessionCount, 1);
  assert.ok(legacy.transport?.sessionId !== undefined);

  for (const client of [modern, legacy]) {
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    const expected = `Hello, Ada (${client.protocolVersion})`;
    assert.deepEqual(result.content, [{ type: 'text', text: expected }]);
    console.log(`${client.era} client (${client.protocolVersion}): ${expected}`);
  }

  await legacy.close();
  assert.equal(handler.sessionCount, 0);
  console.log('legacy session ended by DELETE on close');
} finally {
  await Promise.all([modern.close(), legacy.close()]);
  await handler.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}
