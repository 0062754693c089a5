// Proof of issue 39: the official SDK 1.32.2 example `server/sseAndStreamableHttpCompatibleServer.js`
// (one Express app serving Streamable HTTP on /mcp with an `InMemoryEventStore`, and HTTP+SSE on
// /sse + /messages; sessions of both kinds in one map, told apart by `instanceof`) runs unchanged on
// @x/compat: its SDK imports aliased, its sibling `../shared/inMemoryEventStore.js` copied beside it
// (helpers/aliased-app.ts), port 3000 moved to a free one. Driven over both transports by the x-mcp
// Client and the official Client, both at once on the one server; the same test against the genuine
// example (official SDK, in place) as the reference. Needs @x/compat built.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as OfficialSseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as OfficialHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema as OfficialLogging } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import { SseClientTransport } from '@x/transport-sse';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { aliasedApp, OFFICIAL_EXAMPLES } from './helpers/aliased-app.js';
import { type ExampleServer, startExampleServer } from './helpers/example-process.js';

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'sse.js');
beforeAll(() => {
  if (!existsSync(built))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

type Kind = 'Streamable HTTP' | 'HTTP+SSE';
interface Driven {
  tools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ content: unknown[] }>;
  logs: unknown[];
  close(): Promise<void>;
}

const endpoint = (server: ExampleServer, kind: Kind) =>
  kind === 'Streamable HTTP' ? server.url : new URL('/sse', server.url);

const drivers: Array<{ name: string; connect(server: ExampleServer, kind: Kind): Promise<Driven> }> = [
  {
    name: 'x-mcp Client',
    async connect(server, kind) {
      const logs: unknown[] = [];
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      client.on('log', ({ data }) => logs.push(data));
      const url = endpoint(server, kind);
      await client.connect(
        kind === 'Streamable HTTP' ? new StreamableHttpClientTransport(url) : new SseClientTransport(url),
      );
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
    async connect(server, kind) {
      const logs: unknown[] = [];
      const client = new OfficialClient({ name: 'official', version: '1.0.0' });
      client.setNotificationHandler(OfficialLogging, (notification) => {
        logs.push(notification.params.data);
      });
      const url = endpoint(server, kind);
      const transport =
        kind === 'Streamable HTTP' ? new OfficialHttpTransport(url) : new OfficialSseTransport(url);
      await client.connect(transport);
      return {
        tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        call: (name, args) => client.callTool({ name, arguments: args }) as Promise<{ content: unknown[] }>,
        logs,
        async close() {
          // 1.x's `close()` does not end a Streamable HTTP session; `terminateSession()` sends the DELETE.
          if (transport instanceof OfficialHttpTransport) await transport.terminateSession();
          await client.close();
        },
      };
    },
  },
];

async function startCompatibleServer(app: ReturnType<typeof aliasedApp>): Promise<ExampleServer> {
  return startExampleServer(
    app.addOfficialExample('server/sseAndStreamableHttpCompatibleServer.js'),
    app.dir,
  );
}

/** Where the example runs: aliased onto @x/compat, or (for reference) genuine, in place in the official SDK. */
const runs: Array<{ on: string; start(app: ReturnType<typeof aliasedApp>): Promise<ExampleServer> }> = [
  { on: '@x/compat', start: startCompatibleServer },
  {
    on: 'the genuine official SDK',
    start: () => {
      const genuine = join(OFFICIAL_EXAMPLES, 'server', 'sseAndStreamableHttpCompatibleServer.js');
      return startExampleServer(genuine, dirname(genuine));
    },
  },
];
const cases = runs.flatMap((run) => drivers.map((driver) => ({ ...run, driver, name: driver.name })));

describe.each(cases)(
  'official sseAndStreamableHttpCompatibleServer.js on $on, driven by the $name',
  ({ driver, start }) => {
    it('serves a Streamable HTTP session and an HTTP+SSE session at once, each with its notifications', async () => {
      using app = aliasedApp();
      await using server = await start(app);
      const http = await driver.connect(server, 'Streamable HTTP');
      const sse = await driver.connect(server, 'HTTP+SSE');
      try {
        expect(await http.tools()).toEqual(['start-notification-stream']);
        expect(await sse.tools()).toEqual(['start-notification-stream']);
        const [overHttp, overSse] = await Promise.all([
          http.call('start-notification-stream', { interval: 1, count: 3 }),
          sse.call('start-notification-stream', { interval: 1, count: 4 }),
        ]);
        expect(overHttp.content).toEqual([
          { type: 'text', text: 'Started sending periodic notifications every 1ms' },
        ]);
        expect(overSse.content).toEqual([
          { type: 'text', text: 'Started sending periodic notifications every 1ms' },
        ]);
        // `server.sendLoggingMessage(…, extra.sessionId)`: each session gets its own count, none of the other's.
        await expect.poll(() => http.logs.length, { timeout: 20_000 }).toBe(3);
        await expect.poll(() => sse.logs.length, { timeout: 20_000 }).toBe(4);
        for (const data of [...http.logs, ...sse.logs])
          expect(data).toMatch(/^Periodic notification #\d+ at /);
        expect(server.output()).toMatch(/StreamableHTTP session initialized with ID: [0-9a-f-]{36}/);
        expect(server.output()).toContain('Received GET request to /sse (deprecated SSE transport)');
      } finally {
        await http.close();
        await sse.close();
      }
      await expect
        .poll(() => server.output())
        .toMatch(/Transport closed for session [0-9a-f-]{36}, removing/);
    }, 60_000);
  },
);

describe('sseAndStreamableHttpCompatibleServer.js on @x/compat: its routes tell the two kinds of session apart', () => {
  it('a session of one kind used on the other route is refused (its `instanceof` checks hold on @x/compat)', async () => {
    using app = aliasedApp();
    await using server = await startCompatibleServer(app);
    const official = new OfficialClient({ name: 'official', version: '1.0.0' });
    await official.connect(new OfficialHttpTransport(server.url));
    // An HTTP+SSE session opened by hand: its `endpoint` event names the session id.
    const abort = new AbortController();
    try {
      const streamableId = /StreamableHTTP session initialized with ID: (\S+)/.exec(server.output())?.[1];
      expect(streamableId).toMatch(/^[0-9a-f-]{36}$/);
      const response = await fetch(new URL('/sse', server.url), {
        headers: { accept: 'text/event-stream' },
        signal: abort.signal,
      });
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let events = '';
      while (!/data: \S+\n/.test(events)) {
        const { value, done } = await reader.read();
        if (done) break;
        events += decoder.decode(value, { stream: true });
      }
      const sseId = /event: endpoint\ndata: \/messages\?sessionId=(\S+)\n/.exec(events)?.[1];
      expect(sseId).toMatch(/^[0-9a-f-]{36}$/);

      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const wrongRoute = (url: URL, headers: Record<string, string>) =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
          body: JSON.stringify(ping),
        });
      const sseOnMcp = await wrongRoute(server.url, {
        'mcp-session-id': sseId as string,
        'mcp-protocol-version': '2024-11-05',
      });
      expect(sseOnMcp.status).toBe(400);
      expect(await sseOnMcp.json()).toMatchObject({
        error: {
          code: -32000,
          message: 'Bad Request: Session exists but uses a different transport protocol',
        },
      });
      const streamableOnMessages = await wrongRoute(
        new URL(`/messages?sessionId=${streamableId}`, server.url),
        {},
      );
      expect(streamableOnMessages.status).toBe(400);
      expect(await streamableOnMessages.json()).toMatchObject({
        error: {
          code: -32000,
          message: 'Bad Request: Session exists but uses a different transport protocol',
        },
      });
      // Both sessions still work.
      await expect(official.ping()).resolves.toEqual({});
      const ok = await wrongRoute(new URL(`/messages?sessionId=${sseId}`, server.url), {});
      expect(ok.status).toBe(202);
    } finally {
      abort.abort();
      await official.close();
    }
  }, 60_000);

  it('a Streamable HTTP session keeps its events in the example’s InMemoryEventStore: the responses carry event ids', async () => {
    using app = aliasedApp();
    await using server = await startCompatibleServer(app);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const body = await response.text();
    // The id is the copied store's own (`${streamId}_${Date.now()}_${random}`), not one x-mcp made up.
    expect(body).toMatch(/^id: \S+_\d{13}_[0-9a-z]{1,8}$/m);
    expect(body).toContain('"serverInfo":{"name":"backwards-compatible-server","version":"1.0.0"}');
  }, 60_000);
});
