// The compat WebStandardStreamableHTTPServerTransport (`server/webStandardStreamableHttp.js`) behind a
// minimal node:http → Fetch adapter on a real socket: stateful sessions reach the 1.x callbacks, a body
// a middleware already read is taken from `parsedBody`, and misuse gets a clear error. (Stateless use
// under Hono: the official honoWebStandardStreamableHttp.js example, official-examples-http.test.ts.)
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import { startHttpServer } from '@x/test-kit';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpServer } from '../src/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '../src/server/webStandardStreamableHttp.js';
import * as v2 from '../src/v2/server/index.js';

type Fetch = (request: Request) => Promise<Response>;

/** Serves `fetch` on node:http: the request body buffered into a `Request`, the `Response` streamed back. */
function nodeToFetch(fetch: Fetch) {
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') headers.set(name, value);
      const init: RequestInit = { method: req.method ?? 'GET', headers };
      if (chunks.length > 0) init.body = Buffer.concat(chunks);
      const response = await fetch(new Request(`http://${req.headers.host}${req.url}`, init));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
      res.end();
    })();
  };
}

function echoServer(): McpServer {
  const server = new McpServer({ name: 'web', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
    await extra.sendNotification({
      method: 'notifications/message',
      params: { level: 'info', data: `got ${text}` },
    });
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

describe('compat WebStandardStreamableHTTPServerTransport', () => {
  it('refuses handleRequest before a server is connected, naming what to do', async () => {
    const transport = new WebStandardStreamableHTTPServerTransport();
    await expect(transport.handleRequest(new Request('http://127.0.0.1/mcp'))).rejects.toThrow(
      /connect a server before handleRequest/,
    );
  });

  it('stateful: a session reaches onsessioninitialized, its notifications the official client, its DELETE onsessionclosed and onclose', async () => {
    const events: string[] = [];
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => 'web-session-1',
      onsessioninitialized: (id) => void events.push(`init ${id}`),
      onsessionclosed: (id) => void events.push(`closed ${id}`),
    });
    transport.onclose = () => events.push('onclose');
    await echoServer().connect(transport);
    await using http = await startHttpServer(nodeToFetch((request) => transport.handleRequest(request)));
    const client = new OfficialClient({ name: 'official', version: '1.0.0' });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    const clientTransport = new OfficialTransport(new URL(`${http.url}/mcp`));
    await client.connect(clientTransport);
    expect(transport.sessionId).toBe('web-session-1');
    expect(clientTransport.sessionId).toBe('web-session-1');
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    expect(logs).toEqual(['got hi']);
    await clientTransport.terminateSession();
    await client.close();
    await expect.poll(() => events).toEqual(['init web-session-1', 'closed web-session-1', 'onclose']);
  });

  it('parsedBody: a body a middleware already read is served from the option', async () => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => 'web-session-2',
    });
    await echoServer().connect(transport);
    const parsed: unknown[] = [];
    await using http = await startHttpServer(
      nodeToFetch(async (request) => {
        if (request.method !== 'POST') return transport.handleRequest(request);
        const parsedBody = await request.json();
        parsed.push(parsedBody);
        return transport.handleRequest(request, { parsedBody });
      }),
    );
    const client = new Client({ name: 'x-mcp', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(new URL(`${http.url}/mcp`)));
    try {
      expect((await client.callTool({ name: 'echo', arguments: { text: 'parsed' } })).content).toEqual([
        { type: 'text', text: 'parsed' },
      ]);
      expect(parsed).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'initialize' })]));
      expect(parsed).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'tools/call' })]));
    } finally {
      await client.close();
    }
  });

  it('authInfo: what a middleware authenticated reaches the handlers as extra.authInfo', async () => {
    // Stateless, as 1.x's pattern: a server and transport per request.
    await using http = await startHttpServer(
      nodeToFetch(async (request) => {
        const server = new McpServer({ name: 'web', version: '1.0.0' });
        server.registerTool('whoami', {}, (extra) => ({
          content: [{ type: 'text', text: extra.authInfo?.clientId ?? 'anonymous' }],
        }));
        const transport = new WebStandardStreamableHTTPServerTransport();
        await server.connect(transport);
        return transport.handleRequest(request, {
          authInfo:
            request.headers.get('authorization') === 'Bearer good'
              ? { token: 'good', clientId: 'client-b', scopes: [] }
              : undefined,
        });
      }),
    );
    const whoami = async (headers: Record<string, string>) => {
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      await client.connect(new StreamableHttpClientTransport(new URL(`${http.url}/mcp`), { headers }));
      try {
        return (await client.callTool({ name: 'whoami', arguments: {} })).content;
      } finally {
        await client.close();
      }
    };
    expect(await whoami({ authorization: 'Bearer good' })).toEqual([{ type: 'text', text: 'client-b' }]);
    expect(await whoami({ 'x-compat-auth-ref': 'guessed' })).toEqual([{ type: 'text', text: 'anonymous' }]);
  });

  it('2.x: the same class from @modelcontextprotocol/server serves a 2.x McpServer per request', async () => {
    expect(v2.WebStandardStreamableHTTPServerTransport).toBe(WebStandardStreamableHTTPServerTransport);
    await using http = await startHttpServer(
      nodeToFetch(async (request) => {
        const server = new v2.McpServer({ name: 'v2-web', version: '1.0.0' });
        server.registerTool(
          'add',
          { inputSchema: z.object({ a: z.number(), b: z.number() }) },
          ({ a, b }) => ({
            content: [{ type: 'text', text: String(a + b) }],
          }),
        );
        const transport = new v2.WebStandardStreamableHTTPServerTransport();
        await server.connect(transport);
        return transport.handleRequest(request);
      }),
    );
    const client = new OfficialClient({ name: 'official', version: '1.0.0' });
    await client.connect(new OfficialTransport(new URL(`${http.url}/mcp`)));
    try {
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([
        { type: 'text', text: '5' },
      ]);
    } finally {
      await client.close();
    }
  });
});
