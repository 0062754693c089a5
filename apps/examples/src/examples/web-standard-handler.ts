// Example: the Streamable HTTP server as a Web-standard `(Request) => Promise<Response>` handler, the
// shape Bun.serve, Deno.serve and Workers (`export default { fetch }`) mount directly. No socket here:
// the client gets a `fetch` that builds a `Request` and calls the handler in-process, which is also how
// to test an MCP endpoint without a port. Both eras go through the same handler.
import assert from 'node:assert/strict';
import { Client } from '@x/client';
import { McpServer } from '@x/server';
import type { FetchLike } from '@x/protocol/http';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { z } from 'zod';

const server = new McpServer({ name: 'web-standard-example', version: '1.0.0' });
server.registerTool(
  'shout',
  { description: 'Upper-cases its text', inputSchema: z.object({ text: z.string() }) },
  ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
);
const handler = createStreamableHttpHandler({ onsession: (transport) => server.connect(transport) });

// What a Workers / Bun / Deno module would export; on Deno: `Deno.serve(app.fetch)`.
const app = { fetch: (request: Request): Promise<Response> => handler(request) };

// The in-process `fetch`: every call becomes a Request handed straight to `app.fetch`.
const seen: string[] = [];
const inProcessFetch: FetchLike = (url, init) => {
  seen.push(`${init.method ?? 'GET'} ${jsonRpcMethod(init.body)}`.trim());
  return app.fetch(new Request(url, init));
};

function jsonRpcMethod(body: RequestInit['body']): string {
  if (typeof body !== 'string') return '';
  const message: unknown = JSON.parse(body);
  return typeof message === 'object' && message !== null && 'method' in message ? String(message.method) : '';
}
// Loopback names pass the handler's default DNS-rebinding check; any other host must be allow-listed.
const url = 'http://localhost/mcp';

try {
  for (const protocolVersion of ['modern', 'legacy'] as const) {
    seen.length = 0;
    const client = new Client({ name: 'in-process-client', version: '1.0.0' }, { protocolVersion });
    try {
      await client.connect(new StreamableHttpClientTransport(url, { fetch: inProcessFetch }));
      const result = await client.callTool({ name: 'shout', arguments: { text: 'hello' } });
      assert.deepEqual(result.content, [{ type: 'text', text: 'HELLO' }]);
      console.log(`${client.era} (${client.protocolVersion}): shout('hello') = HELLO`);
    } finally {
      await client.close();
    }
    assert.ok(seen.length > 0);
    console.log(`  requests handled in-process: ${seen.join(', ')}`);
  }
  assert.equal(handler.sessionCount, 0);
} finally {
  await handler.close();
}
