// The compat StreamableHTTPServerTransport in-process on node:http: bad input gets x-mcp's typed HTTP
// answers, misuse a clear error, and a session's close reaches the 1.x callbacks.
import { createServer, type Server as HttpServer } from 'node:http';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpServer } from '../src/server/mcp.js';
import { StreamableHTTPServerTransport } from '../src/server/streamableHttp.js';

let http: HttpServer | undefined;
afterEach(async () => {
  http?.closeAllConnections();
  await new Promise<void>((resolve) => (http === undefined ? resolve() : http.close(() => resolve())));
  http = undefined;
});

async function serve(transport: StreamableHTTPServerTransport): Promise<URL> {
  http = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return new URL(`http://127.0.0.1:${address.port}/mcp`);
}

describe('compat StreamableHTTPServerTransport', () => {
  it('refuses handleRequest before a server is connected, naming what to do', async () => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'sid' });
    await expect(transport.handleRequest({} as never, {} as never)).rejects.toThrow(
      /connect a server before handleRequest/,
    );
  });

  it('answers malformed JSON with 400 and a JSON-RPC parse error, not a crash', async () => {
    const server = new McpServer({ name: 'h', version: '1.0.0' });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'sid' });
    await server.connect(transport);
    const url = await serve(transport);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('reports the session to onsessioninitialized and its end to onsessionclosed and onclose', async () => {
    const events: string[] = [];
    const server = new McpServer({ name: 'h', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }: { text: string }) => ({
      content: [{ type: 'text', text }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => 'session-1',
      onsessioninitialized: (id) => void events.push(`init ${id}`),
      onsessionclosed: (id) => void events.push(`closed ${id}`),
    });
    transport.onclose = () => events.push('onclose');
    await server.connect(transport);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(await serve(transport)));
    expect(transport.sessionId).toBe('session-1');
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    await client.close(); // DELETE ends the session
    await expect.poll(() => events).toEqual(['init session-1', 'closed session-1', 'onclose']);
  });

  it('hands req.auth (set by an auth middleware) to the handlers as extra.authInfo; a client cannot forge it', async () => {
    // Stateless, as 1.x's pattern: a server and transport per request.
    http = createServer((req, res) => {
      const server = new McpServer({ name: 'h', version: '1.0.0' });
      server.registerTool('whoami', {}, (extra) => ({
        content: [
          {
            type: 'text',
            text:
              extra.authInfo === undefined
                ? 'anonymous'
                : `${extra.authInfo.clientId} ${extra.authInfo.scopes.join(',')}`,
          },
        ],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      if (req.headers.authorization === 'Bearer good')
        Object.assign(req, { auth: { token: 'good', clientId: 'client-a', scopes: ['read', 'write'] } });
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const url = new URL(`http://127.0.0.1:${address.port}/mcp`);
    const whoami = async (headers: Record<string, string>) => {
      const client = new Client({ name: 'c', version: '1.0.0' });
      await client.connect(new StreamableHttpClientTransport(url, { headers }));
      try {
        return (await client.callTool({ name: 'whoami', arguments: {} })).content;
      } finally {
        await client.close();
      }
    };
    expect(await whoami({ authorization: 'Bearer good' })).toEqual([
      { type: 'text', text: 'client-a read,write' },
    ]);
    expect(await whoami({})).toEqual([{ type: 'text', text: 'anonymous' }]);
    expect(await whoami({ 'x-compat-auth-ref': 'guessed' })).toEqual([{ type: 'text', text: 'anonymous' }]);
  });
});
