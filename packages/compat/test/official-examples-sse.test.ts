// Proof of issue 39 over the legacy HTTP+SSE transport: the official SDK 1.32.2 example
// `simpleSseServer.js` (an `SSEServerTransport` per GET, POSTs routed by `transport.sessionId`) runs
// unchanged on @x/compat, driven by the x-mcp Client and the official Client. Needs @x/compat built.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as OfficialSseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { LoggingMessageNotificationSchema as OfficialLogging } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import { SseClientTransport } from '@x/transport-sse';
import { beforeAll, describe, expect, it } from 'vitest';
import { aliasedApp } from './helpers/aliased-app.js';
import { startExampleServer } from './helpers/example-process.js';

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'sse.js');
beforeAll(() => {
  if (!existsSync(built))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

interface Driven {
  tools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ content: unknown[] }>;
  logs: unknown[];
  close(): Promise<void>;
}

const drivers: Array<{ name: string; connect(url: URL): Promise<Driven> }> = [
  {
    name: 'x-mcp Client',
    async connect(url) {
      const logs: unknown[] = [];
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      client.on('log', ({ data }) => logs.push(data));
      await client.connect(new SseClientTransport(url));
      return {
        tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        call: (name, args) => client.callTool({ name, arguments: args }),
        logs,
        close: () => client.close(),
      };
    },
  },
  {
    name: 'official Client 1.32.2',
    async connect(url) {
      const logs: unknown[] = [];
      const client = new OfficialClient({ name: 'official', version: '1.0.0' });
      client.setNotificationHandler(OfficialLogging, (n) => {
        logs.push(n.params.data);
      });
      await client.connect(new OfficialSseTransport(url));
      return {
        tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        call: (name, args) => client.callTool({ name, arguments: args }) as Promise<{ content: unknown[] }>,
        logs,
        close: () => client.close(),
      };
    },
  },
];

describe.each(drivers)('official simpleSseServer.js on @x/compat, driven by the $name', (driver) => {
  it('opens a session under the transport’s own id, lists and calls tools, streams its notifications', async () => {
    using app = aliasedApp();
    await using server = await startExampleServer(
      app.addOfficialExample('server/simpleSseServer.js'),
      app.dir,
    );
    const client = await driver.connect(server.url);
    try {
      expect(await client.tools()).toEqual(['start-notification-stream']);
      const result = await client.call('start-notification-stream', { interval: 1, count: 3 });
      expect(result.content).toEqual([{ type: 'text', text: 'Completed sending 3 notifications every 1ms' }]);
      await expect.poll(() => client.logs.length).toBeGreaterThanOrEqual(3);
      // The id the example logged is the one its POST route found the transport by.
      const id = /Established SSE stream with session ID: (\S+)/.exec(server.output())?.[1];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(server.output()).not.toContain('No active transport found');
    } finally {
      await client.close();
    }
    await expect.poll(() => server.output()).toMatch(/SSE transport closed for session/);
  });
});
