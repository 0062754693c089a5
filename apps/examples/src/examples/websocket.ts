// Example: MCP over WebSocket (subprotocol `mcp`). One listener hands every connection to the same
// McpServer. A tool streams progress notifications back over the socket while it runs, and a legacy
// client gets a `notifications/tools/list_changed` pushed with no request of its own in flight: the
// persistent, two-way connection is what this transport is for.
import assert from 'node:assert/strict';
import { Client } from '@x/client';
import type { ProgressUpdate } from '@x/protocol';
import { McpServer } from '@x/server';
import { WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { z } from 'zod';

const server = new McpServer({ name: 'ws-example', version: '1.0.0' }, { listChangedDebounceMs: 0 });
server.registerTool(
  'countdown',
  { description: 'Counts down, reporting progress', inputSchema: z.object({ from: z.number().int() }) },
  async ({ from }, ctx) => {
    for (let left = from; left > 0; left--) {
      await ctx.sendProgress({ progress: from - left + 1, total: from, message: `${left}…` });
    }
    return { content: [{ type: 'text', text: 'liftoff' }] };
  },
);

const subprotocols: string[] = [];
const listener = await listenWebSocket({
  port: 0,
  onsession: (transport, { request }) => {
    subprotocols.push(String(request.headers['sec-websocket-protocol']));
    return server.connect(transport);
  },
});
const url = listener.url;
assert.ok(url !== undefined);
console.log(`listening on ${url.href}`);

const modern = new Client({ name: 'ws-modern', version: '1.0.0' });
const legacy = new Client({ name: 'ws-legacy', version: '1.0.0' }, { protocolVersion: 'legacy' });
try {
  await modern.connect(new WebSocketClientTransport(url));
  await legacy.connect(new WebSocketClientTransport(url));
  assert.deepEqual(subprotocols, ['mcp', 'mcp']);

  for (const client of [modern, legacy]) {
    const progress: ProgressUpdate[] = [];
    const result = await client.callTool(
      { name: 'countdown', arguments: { from: 3 } },
      { onprogress: (update) => progress.push(update) },
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'liftoff' }]);
    assert.deepEqual(
      progress.map((p) => p.message),
      ['3…', '2…', '1…'],
    );
    console.log(
      `${client.era} (${client.protocolVersion}): countdown → ${progress.length} progress updates, liftoff`,
    );
  }

  const changed = new Promise<void>((resolve) => legacy.on('toolsListChanged', () => resolve()));
  server.registerTool('late', { description: 'Registered after connect' }, () => ({ content: [] }));
  await changed;
  assert.ok((await legacy.listTools()).tools.some((tool) => tool.name === 'late'));
  console.log('legacy client got tools/list_changed pushed over the socket');
} finally {
  await Promise.all([modern.close(), legacy.close()]);
  await listener.close();
}
