// server/sse.js of @x/compat in-process: the 1.x `SSEServerTransport` on a node:http server, the
// endpoint event naming the transport's own `sessionId`, and what happens on a refused stream.
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/mcp.js';
import { SSEServerTransport } from '../src/server/sse.js';

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('compat SSEServerTransport', () => {
  it('announces /messages?sessionId=<transport.sessionId> and answers a POST routed by it', async () => {
    const transports = new Map<string, SSEServerTransport>();
    const errors: unknown[] = [];
    await using http = await listen((req, res) => {
      if (req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        const mcp = new McpServer({ name: 'sse', version: '1.0.0' });
        mcp.connect(transport).catch((error: unknown) => errors.push(error));
        return;
      }
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
      const transport = transports.get(id);
      if (transport === undefined) res.writeHead(404).end('no such session');
      else void transport.handlePostMessage(req, res);
    });
    const stream = await fetch(`${http.base}/sse`, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/\n\n/.test(text)) text += (await reader.read()).value ?? '';
    const [id] = [...transports.keys()];
    expect(text).toContain(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
    const post = await fetch(`${http.base}/messages?sessionId=${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(post.status).toBe(202);
    while (!text.includes('"id":1')) text += (await reader.read()).value ?? '';
    expect(text).toContain('"serverInfo":{"name":"sse"');
    await reader.cancel();
    expect(errors).toEqual([]);
  });

  it('rejects connect when x-mcp refuses the stream (a foreign Host on loopback), and a POST before it', async () => {
    const outcomes: unknown[] = [];
    await using http = await listen((req, res) => {
      const transport = new SSEServerTransport('/messages', res);
      const settle = (value: unknown) => outcomes.push(value);
      if (req.method === 'POST') transport.handlePostMessage(req, res).then(settle, settle);
      else new McpServer({ name: 'sse', version: '1.0.0' }).connect(transport).then(settle, settle);
    });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request(`${http.base}/sse`, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
    await expect.poll(() => outcomes.length).toBe(1);
    expect(String(outcomes[0])).toMatch(/event stream was refused \(HTTP 403\)/);

    const post = await fetch(`${http.base}/messages?sessionId=x`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(500);
    await expect.poll(() => outcomes.length).toBe(2);
    expect(String(outcomes[1])).toMatch(/SSE connection not established/);
  });
});
