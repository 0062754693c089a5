// client/sse.js of @x/compat (the 1.x `SSEClientTransport`) against the genuine official 1.32.2
// `simpleSseServer.js` example, run in place from the official package.
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '../src/client/index.js';
import { SSEClientTransport } from '../src/client/sse.js';
import { LoggingMessageNotificationSchema } from '../src/types.js';
import { OFFICIAL_EXAMPLES } from './helpers/aliased-app.js';
import { startExampleServer } from './helpers/example-process.js';

describe('compat SSEClientTransport', () => {
  it('talks to the official HTTP+SSE example server: tools, a call, its logging notifications', async () => {
    const file = join(OFFICIAL_EXAMPLES, 'server', 'simpleSseServer.js');
    await using server = await startExampleServer(file, dirname(file));
    const client = new Client({ name: 'compat-sse', version: '1.0.0' });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params.data));
    await client.connect(new SSEClientTransport(server.url));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(
        'start-notification-stream',
      );
      const result = await client.callTool({
        name: 'start-notification-stream',
        arguments: { interval: 1, count: 2 },
      });
      expect(result.isError).toBeFalsy();
      await expect.poll(() => logs.length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
    }
  });

  it('refuses the 1.x authProvider with an error that says where to look', () => {
    expect(() => new SSEClientTransport(new URL('http://127.0.0.1:1/sse'), { authProvider: {} })).toThrow(
      /README/,
    );
  });
});
