import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createStreamableHttpHandler,
  InMemoryEventStore,
  StreamableHttpClientTransport,
} from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { closeServer } from './helpers.js';

function officialServer(): McpServer {
  const server = new McpServer({ name: 'official', version: '1.0.0' });
  server.registerTool(
    'count',
    { description: 'counts with progress', inputSchema: { to: z.number() } },
    async ({ to }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= to; i++) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: to },
          });
        }
      }
      return { content: [{ type: 'text', text: `counted to ${to}` }] };
    },
  );
  return server;
}

async function exercise(client: Client, expectProgress = true): Promise<void> {
  const tools = await client.listTools();
  expect(tools.tools.map((t) => t.name)).toEqual(['count']);
  const progress: number[] = [];
  const result = await client.callTool({ name: 'count', arguments: { to: 3 } }, undefined, {
    onprogress: (p) => progress.push(p.progress),
  });
  expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
  // A JSON reply cannot carry progress (it is one object, sent last); SSE replies stream it.
  expect(progress).toEqual(expectProgress ? [1, 2, 3] : []);
}

describe('interop with @modelcontextprotocol/sdk 1.32.2', () => {
  it.each([
    ['SSE', false],
    ['JSON', true],
  ])('official Client + transport → official McpServer on OUR server transport (%s)', async (_n, json) => {
    const servers: McpServer[] = [];
    const handler = createStreamableHttpHandler({
      enableJsonResponse: json,
      eventStore: new InMemoryEventStore(),
      onsession: async (transport) => {
        const server = officialServer();
        servers.push(server);
        await server.connect(transport);
      },
    });
    const http = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    const client = new Client({ name: 'official-client', version: '1.0.0' });
    try {
      const transport = new StreamableHTTPClientTransport(url);
      await client.connect(transport);
      expect(transport.sessionId).toBeTruthy();
      await exercise(client, !json);
      await transport.terminateSession();
      expect(handler.sessionCount).toBe(0);
    } finally {
      await client.close();
      await handler.close();
      await closeServer(http);
    }
  });

  it('official Client over OUR client transport → official McpServer on the official server transport', async () => {
    const server = officialServer();
    const official = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(official);
    const http = createServer((req, res) => void official.handleRequest(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const client = new Client({ name: 'x-client', version: '1.0.0' });
    try {
      const transport = new StreamableHttpClientTransport(url);
      await client.connect(transport);
      expect(transport.sessionId).toBe(official.sessionId);
      await exercise(client);
    } finally {
      await client.close();
      await server.close();
      await closeServer(http);
    }
  });
});
