import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionClosedError, type JSONRPCMessage, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport, HttpStatusError } from '../src/index.js';
import { closeServer } from './helpers.js';

/** Regression tests for issue #24 "Hardening", Streamable HTTP client side, against hostile servers. */

const M = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': M,
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Hostile {
  url: string;
  /** Bytes of body the server managed to hand to its socket before the client went away. */
  written: number;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A node:http server that answers every POST with `reply`. */
async function hostile(
  reply: (req: IncomingMessage, res: ServerResponse, state: Hostile) => void,
): Promise<Hostile> {
  const state: Hostile = {
    url: '',
    written: 0,
    [Symbol.asyncDispose]: () => closeServer(server),
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => reply(req, res, state));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return state;
}

/** Writes `total` bytes of `chunk`-sized body, as fast as the client reads, until done or the client is gone. */
function pump(res: ServerResponse, state: Hostile, head: string, total: number, tail: string): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.write(head);
  const step = (): void => {
    while (state.written < total) {
      if (res.destroyed) return;
      state.written += chunk.byteLength;
      if (!res.write(chunk)) {
        res.once('drain', step);
        return;
      }
    }
    res.end(tail);
  };
  step();
}

function legacyRequest(id = 1): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method: 'tools/list' };
}

function modernRequest(method = 'tools/call', id = 1): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method, params: { name: 'echo', _meta: META } };
}

async function started(url: string, options = {}) {
  const transport = new StreamableHttpClientTransport(url, { standaloneStream: false, ...options });
  const errors: Error[] = [];
  const received: JSONRPCMessage[] = [];
  transport.onerror = (error) => errors.push(error);
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  return { transport, errors, received };
}

function deepJson(depth: number): string {
  return `{"jsonrpc":"2.0","id":1,"result":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

describe('client reply limits (item 6)', () => {
  it.each([
    { requester: 'undici dispatcher (Node default)', options: {} },
    { requester: 'fetch', options: { fetch: (url: string | URL, init: RequestInit) => fetch(url, init) } },
  ])(
    'surfaces a 503 with its Retry-After as HttpStatusError.retryAfterMs ($requester)',
    async ({ options }) => {
      await using server = await hostile((_req, res) => {
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '7' });
        res.end('overloaded');
      });
      const { transport } = await started(server.url, options);
      const error = (await transport.send(legacyRequest()).catch((e: unknown) => e)) as HttpStatusError;
      expect(error).toBeInstanceOf(HttpStatusError);
      expect(error.status).toBe(503);
      expect(error.retryAfterMs).toBe(7000);
      await transport.close();
    },
  );

  it.each([
    { requester: 'undici dispatcher (Node default)', options: {} },
    { requester: 'fetch', options: { fetch: (url: string | URL, init: RequestInit) => fetch(url, init) } },
  ])(
    'refuses a JSON reply over maxMessageBytes without reading it all, naming the limit ($requester)',
    async ({ options }) => {
      await using server = await hostile((_req, res, state) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        pump(res, state, '{"jsonrpc":"2.0","id":1,"result":{"pad":"', 64 * 1024 * 1024, '"}}');
      });
      const { transport } = await started(server.url, options);
      await expect(transport.send(legacyRequest())).rejects.toThrow(
        /the reply to tools\/list exceeds maxMessageBytes \(4194304\)/,
      );
      await transport.close();
      expect(server.written).toBeLessThan(32 * 1024 * 1024);
    },
  );

  it('refuses a declared Content-Length over the limit at once; the option raises it', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pad: 'x'.repeat(2 * 1024 * 1024) } });
    await using server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) });
      res.end(big);
    });
    const small = await started(server.url, { maxMessageBytes: 1024 * 1024 });
    const error = await small.transport.send(legacyRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as Error).message).toContain('maxMessageBytes (1048576)');
    await small.transport.close();
    const fine = await started(server.url);
    await fine.transport.send(legacyRequest());
    expect(fine.received).toHaveLength(1);
    await fine.transport.close();
  });

  it.each([
    { requester: 'undici dispatcher (Node default)', options: {} },
    { requester: 'fetch', options: { fetch: (url: string | URL, init: RequestInit) => fetch(url, init) } },
  ])('reads at most a few KiB of an error body ($requester)', async ({ options }) => {
    await using server = await hostile((_req, res, state) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      pump(res, state, 'boom ', 256 * 1024 * 1024, '');
    });
    const { transport } = await started(server.url, options);
    const error = (await transport.send(legacyRequest()).catch((e: unknown) => e)) as HttpStatusError;
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error.status).toBe(500);
    expect(error.body.length).toBeLessThanOrEqual(4096);
    expect(error.body.startsWith('boom aaaa')).toBe(true);
    await transport.close();
    expect(server.written).toBeLessThan(32 * 1024 * 1024);
  });

  it('drops an SSE event over maxMessageBytes and fails its request naming the limit', async () => {
    await using server = await hostile((_req, res, state) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      pump(res, state, 'data: {"jsonrpc":"2.0","id":1,"result":{"pad":"', 64 * 1024 * 1024, '"}}\n\n');
    });
    const { transport, errors, received } = await started(server.url);
    await transport.send(legacyRequest());
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({
      id: 1,
      error: { code: -32000, message: expect.stringContaining('exceeds maxMessageBytes (4194304)') },
    });
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('maxMessageBytes (4194304)')]);
    await transport.close();
    expect(server.written).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('client nesting depth (item 4)', () => {
  it('refuses a JSON reply nested deeper than maxNestingDepth with -32700 naming it; the option raises it', async () => {
    await using server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(deepJson(200));
    });
    const strict = await started(server.url);
    const error = await strict.transport.send(legacyRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32700, message: expect.stringContaining('maxNestingDepth (128)') });
    await strict.transport.close();
    const loose = await started(server.url, { maxNestingDepth: 300 });
    await loose.transport.send(legacyRequest());
    expect(loose.received).toHaveLength(1);
    await loose.transport.close();
  });

  it('refuses an SSE event nested too deeply (reported, not parsed); the option raises the limit', async () => {
    await using server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${deepJson(200)}\n\n`);
    });
    const { transport, errors, received } = await started(server.url);
    await transport.send(legacyRequest());
    await expect.poll(() => received.length).toBe(1);
    expect(errors[0]).toMatchObject({
      code: -32700,
      message: expect.stringContaining('maxNestingDepth (128)'),
    });
    expect(received[0]).toMatchObject({ id: 1, error: { code: -32000 } });
    await transport.close();
    const loose = await started(server.url, { maxNestingDepth: 300 });
    await loose.transport.send(legacyRequest());
    await expect.poll(() => loose.received.length).toBe(1);
    expect(loose.received[0]).toHaveProperty('result.a');
    await loose.transport.close();
  });
});

describe('client errors name the peer (item 14)', () => {
  it('a modern server dying mid-request: connection closed by the server while awaiting the response, cause attached', async () => {
    await using server = await hostile((req) => req.socket.destroy());
    const { transport } = await started(server.url);
    const error = (await transport.send(modernRequest()).catch((e: unknown) => e)) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toBe(
      `${server.url}: connection closed by the server while awaiting the response to tools/call (other side closed)`,
    );
    expect(error.cause).toBeInstanceOf(Error);
    await transport.close();
  });

  it('a modern server dying after its SSE stream opened: the lost request names peer and method', async () => {
    await using server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n',
      );
      setImmediate(() => res.socket?.destroy());
    });
    const { transport, received } = await started(server.url);
    await transport.send(modernRequest('prompts/get'));
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]).toMatchObject({
      id: 1,
      error: {
        code: -32000,
        message: expect.stringContaining(
          `${server.url}: connection closed by the server while awaiting the response to prompts/get`,
        ),
      },
    });
    await transport.close();
  });
});
