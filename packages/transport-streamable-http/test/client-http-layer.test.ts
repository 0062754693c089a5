import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { JSONRPCMessage } from '@x/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Exchanges } from '../src/client/exchanges.js';
import type { HttpReply } from '../src/client/requester.js';
import { readSse } from '../src/client/sse-reader.js';
import { Utf8Decoder } from '../src/client/utf8-decoder.js';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { attachResponder, miniClient } from './helpers.js';
import { afterTurn, waitFor } from '@x/test-kit';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

type FakeReply = Pick<HttpReply, 'stream' | 'text' | 'header'>;

/** A reply of unknown length whose body arrives as `chunks`, each a macrotask after the previous one. */
function chunkedReply(chunks: Uint8Array[]): FakeReply {
  return {
    header: () => null,
    text: () => Promise.reject(new Error('a streamed reply is not read whole')),
    stream: async (onChunk) => {
      for (const chunk of chunks) {
        await afterTurn();
        onChunk(chunk);
      }
    },
  };
}

describe('Utf8Decoder', () => {
  it('decodes characters split across chunks, at any byte', () => {
    const text = 'aé€😀z';
    const bytes = encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const decoder = new Utf8Decoder();
      const out = decoder.decode(bytes.slice(0, cut)) + decoder.decode(bytes.slice(cut)) + decoder.end();
      expect(out).toBe(text);
    }
  });

  it('drops a BOM at the start of the stream only', () => {
    const decoder = new Utf8Decoder();
    expect(decoder.decode(new Uint8Array([0xef, 0xbb]))).toBe('');
    expect(decoder.decode(new Uint8Array([0xbf, 0x61]))).toBe('a');
    expect(decoder.decode(encode('\uFEFFb'))).toBe('\uFEFFb');
  });

  it('ends an unfinished character as U+FFFD', () => {
    const decoder = new Utf8Decoder();
    expect(decoder.decode(new Uint8Array([0x61, 0xe2, 0x82]))).toBe('a');
    expect(decoder.end()).toBe('\uFFFD');
  });
});

describe('readSse', () => {
  it('delivers events split across chunks in order, a microtask apart', async () => {
    const body = encode('id: 1\ndata: {"a":"é"}\n\nid: 2\ndata: two\n\ndata: three\n\n');
    const seen: string[] = [];
    await readSse(chunkedReply([body.slice(0, 19), body.slice(19, 30), body.slice(30)]), {
      onEvent: (event) => {
        seen.push(`${event.id ?? '-'}:${event.data}`);
        queueMicrotask(() => seen.push('tick'));
      },
    });
    expect(seen).toEqual(['1:{"a":"é"}', 'tick', '2:two', 'tick', '-:three', 'tick']);
  });

  it('passes the retry field on and ignores comments', async () => {
    const retries: number[] = [];
    const data: string[] = [];
    await readSse(chunkedReply([encode(': keep-alive\n\nretry: 250\ndata: x\n\n')]), {
      onEvent: (event) => data.push(event.data),
      onRetry: (ms) => retries.push(ms),
    });
    expect({ retries, data }).toEqual({ retries: [250], data: ['x'] });
  });

  it('rejects when the body breaks, after delivering the events that arrived', async () => {
    const data: string[] = [];
    const reply: FakeReply = {
      header: () => null,
      text: () => Promise.reject(new Error('not read whole')),
      stream: async (onChunk: (chunk: Uint8Array) => void) => {
        onChunk(encode('data: first\n\n'));
        await afterTurn();
        throw new Error('socket hang up');
      },
    };
    await expect(readSse(reply, { onEvent: (event) => data.push(event.data) })).rejects.toThrow(
      'socket hang up',
    );
    expect(data).toEqual(['first']);
  });
});

/** A reply with a known length, its body already complete. */
function wholeReply(text: string): FakeReply {
  return {
    header: (name) => (name === 'content-length' ? String(Buffer.byteLength(text)) : null),
    text: () => Promise.resolve(text),
    stream: () => Promise.reject(new Error('a whole reply is read with text()')),
  };
}

describe('readSse on a whole body (known length)', () => {
  const collect = async (reply: FakeReply): Promise<string[]> => {
    const seen: string[] = [];
    await readSse(reply, {
      onEvent: (event) => {
        seen.push(`${event.event ?? '-'}|${event.id ?? '-'}|${event.data}`);
        queueMicrotask(() => seen.push('tick'));
      },
      onRetry: (ms) => seen.push(`retry ${ms}`),
    });
    return seen;
  };

  it('delivers exactly what the streaming parser delivers, for plain and any other bodies', async () => {
    const line = fc.string({
      unit: fc.constantFrom('a', 'é', '{', '"', ' ', ':', '🙂', '\\'),
      maxLength: 12,
    });
    const block = fc.oneof(
      line.map((data) => `data: ${data}\n\n`),
      line.map((data) => `event: message\ndata: ${data}\n\n`),
      // what sends the reader to the full parser
      line.map((data) => `id: ${data.length}\ndata: ${data}\n\n`),
      line.map((data) => `data: ${data}\r\n\r\n`),
      line.map((data) => `data: ${data}\ndata: more\n\n`),
      fc.constant(': comment\n\n'),
      fc.constant('retry: 300\n\n'),
      fc.constant('data: \n\n'),
      fc.constant('event: other\ndata: x\n\n'),
      fc.constant('\uFEFFdata: after a byte order mark\n\n'),
      line.map((data) => `data:${data}\n\n`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(block, { maxLength: 6 }), fc.boolean(), async (blocks, cut) => {
        const text = blocks.join('') + (cut ? 'data: unfinished' : '');
        const bytes = encode(text);
        // `retry` is a setting, not an event: only its values are compared, not where it falls between them.
        const split = (seen: string[]) => ({
          events: seen.filter((s) => !s.startsWith('retry')),
          retries: seen.filter((s) => s.startsWith('retry')),
        });
        const streamed = split(await collect(chunkedReply([bytes.slice(0, 7), bytes.slice(7)])));
        expect(split(await collect(wholeReply(text)))).toEqual(streamed);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a plain answer without the streaming path, a microtask apart', async () => {
    const text = 'data: {"a":1}\n\nevent: message\ndata: two\n\n';
    expect(await collect(wholeReply(text))).toEqual(['-|-|{"a":1}', 'tick', 'message|-|two', 'tick']);
  });

  it('streams a long reply instead of reading it whole', async () => {
    const text = `data: ${'x'.repeat(1024 * 1024)}\n\n`;
    const reply: FakeReply = {
      header: (name) => (name === 'content-length' ? String(Buffer.byteLength(text)) : null),
      text: () => Promise.reject(new Error('must not buffer a body over the limit')),
      stream: async (onChunk) => onChunk(encode(text)),
    };
    expect((await collect(reply))[0]?.length).toBe(4 + 1024 * 1024);
  });
});

/** A client transport with its session initialized, for tests about what lies under it. */
async function initialized(url: string | URL) {
  const transport = new StreamableHttpClientTransport(url);
  const client = miniClient(transport);
  await transport.start();
  await client.initialize();
  return { transport, client };
}

describe('Exchanges', () => {
  it("removes its listener from a caller's signal once an exchange is released", () => {
    const exchanges = new Exchanges();
    const caller = new AbortController();
    for (let i = 0; i < 20; i++) exchanges.release(exchanges.open(caller.signal));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    const open = exchanges.open(caller.signal);
    caller.abort(new Error('stop'));
    expect(open.aborted).toBe(true);
    expect((open.reason as Error).message).toBe('stop');
  });

  it('aborts every open exchange on closeAll, and opens later ones aborted', () => {
    const exchanges = new Exchanges();
    const first = exchanges.open();
    const cancelled: unknown[] = [];
    first.onAbort((reason) => cancelled.push(reason));
    exchanges.closeAll();
    expect(first.aborted).toBe(true);
    expect(cancelled).toHaveLength(1);
    expect(exchanges.open().aborted).toBe(true);
  });
});

interface ObservedServer {
  url: string;
  server: Server;
  /** Server-side sockets not yet closed. */
  open: Set<Socket>;
  connections: () => number;
}

/** A node:http server whose connections the test can count; keep-alive long enough to notice leftovers. */
async function observedServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<ObservedServer> {
  const server = createServer(handle);
  server.keepAliveTimeout = 60_000;
  const open = new Set<Socket>();
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, server, open, connections: () => connections };
}

async function mcpServer(): Promise<ObservedServer> {
  const handler = createStreamableHttpHandler({
    onsession: async (transport) => {
      attachResponder(transport);
      await transport.start();
    },
  });
  const node = toNodeHandler(handler);
  return observedServer((req, res) => node(req, res));
}

describe('default HTTP client (undici dispatcher)', () => {
  it('shares keep-alive connections between sessions to one server', async () => {
    const observed = await mcpServer();
    const { transport: a, client: clientA } = await initialized(observed.url);
    await clientA.request('echo', { n: 1 });
    // A holds one connection for its GET stream and one idle one; B's first POST takes the idle one.
    const before = observed.connections();
    const b = new StreamableHttpClientTransport(observed.url);
    const clientB = miniClient(b);
    await b.start();
    expect(
      await clientB.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
    ).toMatchObject({
      result: { protocolVersion: '2025-11-25' },
    });
    expect(observed.connections()).toBe(before);
    await a.close();
    // B keeps working after A gave back its share of the pool.
    await clientB.notify('notifications/initialized');
    expect(await clientB.request('echo', { n: 2 })).toMatchObject({ result: { echoed: { n: 2 } } });
    await b.close();
    observed.server.closeAllConnections();
    await new Promise((resolve) => observed.server.close(resolve));
  });

  it('closes with DELETE before dropping the GET stream, so a new session reuses every connection', async () => {
    const observed = await mcpServer();
    const { transport: a, client: clientA } = await initialized(observed.url);
    await clientA.request('echo', { n: 1 });
    // The server ends the GET stream with the session: its connection goes back to the pool, not away.
    await a.close();
    const afterA = observed.connections();
    const { transport: b, client: clientB } = await initialized(observed.url);
    expect(await clientB.request('echo', { n: 2 })).toMatchObject({ result: { echoed: { n: 2 } } });
    expect(observed.connections()).toBe(afterA);
    await b.close();
    await waitFor(() => observed.open.size === 0, { what: 'the client to close its idle connections' });
    await new Promise((resolve) => observed.server.close(resolve));
  });

  it('leaves no keep-alive connection open once the last session closed (a plain server.close() finishes)', async () => {
    const observed = await mcpServer();
    const { transport, client } = await initialized(observed.url);
    await client.request('echo', { n: 1 });
    await transport.close();
    await waitFor(() => observed.open.size === 0, { what: 'the client to close its idle connections' });
    await new Promise((resolve) => observed.server.close(resolve));
  });

  it('reads JSON and SSE replies that arrive in several chunks, split inside characters', async () => {
    const json = encode('{"jsonrpc":"2.0","id":1,"result":{"text":"héllo €"}}');
    const sse = encode('id: e1\ndata: {"jsonrpc":"2.0","id":2,"result":{"text":"wörld 😀"}}\n\n');
    const observed = await observedServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const useSse = req.headers['x-reply'] === 'sse';
        const body = useSse ? sse : json;
        res.writeHead(200, { 'content-type': useSse ? 'text/event-stream' : 'application/json' });
        // Cut inside the multi-byte character near the end, with a pause so the halves travel apart.
        const cut = body.length - 8;
        res.write(body.slice(0, cut));
        setTimeout(() => res.end(body.slice(cut)), 20);
      });
    });
    const transport = new StreamableHttpClientTransport(observed.url, { terminateSessionOnClose: false });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'echo' });
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'echo' }, { headers: { 'x-reply': 'sse' } });
    await waitFor(() => received.length === 2, { what: 'both replies' });
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, result: { text: 'héllo €' } },
      { jsonrpc: '2.0', id: 2, result: { text: 'wörld 😀' } },
    ]);
    await transport.close();
    observed.server.closeAllConnections();
    await new Promise((resolve) => observed.server.close(resolve));
  });

  it('cancels a POST whose request signal aborts, and reports the reason', async () => {
    let serverSawClose = false;
    const observed = await observedServer((req) => {
      req.resume();
      req.on('close', () => {
        serverSawClose = true;
      });
      // Never answers.
    });
    const transport = new StreamableHttpClientTransport(observed.url, { terminateSessionOnClose: false });
    await transport.start();
    const requestSignal = new AbortController();
    const sent = transport.send(
      { jsonrpc: '2.0', id: 1, method: 'slow' },
      { requestSignal: requestSignal.signal },
    );
    await waitFor(() => observed.connections() === 1, { what: 'the POST' });
    requestSignal.abort(new Error('gave up'));
    await expect(sent).rejects.toThrow('gave up');
    await waitFor(() => serverSawClose, { what: 'the server to see the request end' });
    await transport.close();
    observed.server.closeAllConnections();
    await new Promise((resolve) => observed.server.close(resolve));
  });

  it('accepts synchronous and asynchronous getHeaders', async () => {
    const seen: string[] = [];
    const observed = await observedServer((req, res) => {
      seen.push(String(req.headers['x-token']));
      req.resume();
      req.on('end', () => {
        res.writeHead(202);
        res.end();
      });
    });
    let calls = 0;
    const transport = new StreamableHttpClientTransport(observed.url, {
      getHeaders: () =>
        ++calls % 2 === 1 ? { 'X-Token': `sync-${calls}` } : Promise.resolve({ 'X-Token': `async-${calls}` }),
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/a' });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/b' });
    expect(seen).toEqual(['sync-1', 'async-2']);
    await transport.close();
    observed.server.closeAllConnections();
    await new Promise((resolve) => observed.server.close(resolve));
  });
});
