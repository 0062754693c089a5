import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, type WebHandler } from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { type SseSink, SseWriter } from '../src/server/sse-writer.js';
import {
  attachResponder,
  closeServer,
  initializeRequest,
  POST_HEADERS,
  parseSse,
  raw,
  sseMessages,
  startServer,
} from './helpers.js';

class RecordingSink implements SseSink {
  writes: string[] = [];
  ended = false;
  destroyed: Error | undefined;
  writableLength = 0;
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return true;
  }
  end(): void {
    this.ended = true;
  }
  destroy(error?: Error): void {
    this.destroyed = error ?? new Error('destroyed');
  }
}

describe('SseWriter with a sink (the node:http path)', () => {
  it('writes frames held before attach in one write, then each frame, and ends with close()', () => {
    const writer = new SseWriter();
    writer.prime('s#0', 100);
    writer.event('{"a":1}', 's#1');
    const sink = new RecordingSink();
    expect(writer.attach(sink)).toBe(true);
    expect(sink.writes).toEqual(['id: s#0\nretry: 100\ndata: \n\nid: s#1\ndata: {"a":1}\n\n']);
    writer.event('{"b":2}');
    writer.close();
    expect(sink.writes[1]).toBe('data: {"b":2}\n\n');
    expect(sink.ended).toBe(true);
    expect(writer.event('{}')).toBe(false);
  });

  it('ends a sink attached after close() once the held frames are written', () => {
    const writer = new SseWriter();
    writer.event('{"a":1}');
    writer.close();
    const sink = new RecordingSink();
    writer.attach(sink);
    expect(sink.writes).toEqual(['data: {"a":1}\n\n']);
    expect(sink.ended).toBe(true);
  });

  it('drops a sink whose client stopped reading, and reports the disconnect once', () => {
    let disconnected = 0;
    const writer = new SseWriter({ maxBufferedBytes: 4096, onDisconnect: () => disconnected++ });
    const sink = new RecordingSink();
    writer.attach(sink);
    sink.writableLength = 64 * 1024 + 4097;
    expect(writer.event('{}')).toBe(false);
    expect(sink.destroyed?.message).toMatch(/fell behind by more than maxBufferedBytes/);
    expect(disconnected).toBe(1);
  });

  it('treats abandon() as the client going away, but not after a normal close', () => {
    let disconnected = 0;
    const writer = new SseWriter({ onDisconnect: () => disconnected++ });
    writer.attach(new RecordingSink());
    writer.abandon();
    expect(disconnected).toBe(1);
    expect(writer.closed).toBe(true);
    const closedFirst = new SseWriter({ onDisconnect: () => disconnected++ });
    closedFirst.attach(new RecordingSink());
    closedFirst.close();
    closedFirst.abandon();
    expect(disconnected).toBe(1);
  });

  it('refuses a second consumer', () => {
    const writer = new SseWriter();
    writer.attach(new RecordingSink());
    expect(() => writer.stream).toThrow();
    expect(() => writer.attach(new RecordingSink())).toThrow();
  });
});

describe('toNodeHandler', () => {
  it('serves a wrapped handler (a user WebHandler) through the Web-standard path with full bodies', async () => {
    const handler = createStreamableHttpHandler({
      onsession: async (transport) => {
        attachResponder(transport);
        await transport.start();
      },
    });
    const seen: string[] = [];
    const logged: WebHandler = (request, context) => {
      seen.push(request.method);
      return handler(request, context);
    };
    const http = createServer(toNodeHandler(logged));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      const reply = await raw(url, { headers: POST_HEADERS, body: initializeRequest() });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('text/event-stream');
      expect(sseMessages(reply.text)).toMatchObject([{ id: 1, result: { protocolVersion: '2025-11-25' } }]);
      expect(seen).toEqual(['POST']);
    } finally {
      await handler.close();
      await closeServer(http);
    }
  });

  it('gives the authenticate hook a Request and still reads the body after it', async () => {
    const seen: Array<{ method: string; url: string; authorization: string | null }> = [];
    await using server = await startServer({
      authenticate: (request) => {
        seen.push({
          method: request.method,
          url: request.url,
          authorization: request.headers.get('authorization'),
        });
        return { token: 't', clientId: 'c', scopes: [] };
      },
    });
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, authorization: 'Bearer t' },
      body: initializeRequest(),
    });
    expect(reply.status).toBe(200);
    expect(sseMessages(reply.text)).toMatchObject([{ id: 1, result: {} }]);
    expect(seen).toEqual([{ method: 'POST', url: server.url, authorization: 'Bearer t' }]);
  });

  it('answers JSON replies with their length and the same headers as the Web path', async () => {
    await using server = await startServer({ enableJsonResponse: true });
    const reply = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
    expect(reply.headers['mcp-session-id']).toBeTruthy();
    const web = await server.handler(
      new Request(server.url, {
        method: 'POST',
        headers: { ...POST_HEADERS, host: new URL(server.url).host },
        body: JSON.stringify(initializeRequest()),
      }),
    );
    expect(web.headers.get('content-type')).toBe('application/json');
    expect(await web.json()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
  });

  it('answers a reply of hundreds of KiB (multi-byte text) whole and with its exact length, JSON and SSE', async () => {
    // Past 16 KiB the head leaves before the body (one copy less); the length must still be in bytes.
    const instructions = `${'é'.repeat(100_000)}${'🙂'.repeat(20_000)}end`;
    const handlers = {
      initialize: () => ({
        protocolVersion: '2025-11-25',
        capabilities: {},
        serverInfo: { name: 's', version: '1' },
        instructions,
      }),
    };
    for (const enableJsonResponse of [true, false]) {
      await using server = await startServer({ enableJsonResponse, handlers });
      const reply = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
      expect(reply.status).toBe(200);
      expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
      const message = enableJsonResponse
        ? (JSON.parse(reply.text) as { result: { instructions: string } })
        : (sseMessages(reply.text)[0] as unknown as { result: { instructions: string } });
      expect(message.result.instructions).toBe(instructions);
    }
  });

  it('opens an SSE reply at once when its first event is slow to come', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await using server = await startServer({
      handlers: {
        initialize: async () => {
          await gate;
          return { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } };
        },
      },
    });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: POST_HEADERS,
      body: JSON.stringify(initializeRequest()),
    });
    // The headers arrived while the answer is still held back by the gate.
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    release();
    const events = parseSse(await response.text());
    expect(events.map((event) => JSON.parse(event.data) as { id: number })).toMatchObject([{ id: 1 }]);
  });

  it('reads a body that arrives in pieces, and answers 400 for bytes that are not UTF-8', async () => {
    await using server = await startServer();
    const send = (pieces: Buffer[]): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(server.url, { method: 'POST', headers: POST_HEADERS }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        // Chunked: each piece is its own chunk on the wire.
        for (const piece of pieces) req.write(piece);
        req.end();
      });
    const text = Buffer.from(JSON.stringify(initializeRequest(1)));
    const pieces = await send([text.subarray(0, 10), text.subarray(10, 40), text.subarray(40)]);
    expect(pieces.status).toBe(200);
    expect(sseMessages(pieces.body)).toMatchObject([{ id: 1, result: {} }]);
    const broken = await send([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}}'),
    ]);
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({ error: { code: -32700 } });
  });

  it('accepts a body a framework parser already consumed (req.body), as Express mounts it', async () => {
    await using server = await preParsedServer();
    const reply = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeTruthy();
  });

  it('applies the body limit to a body a framework parser already read', async () => {
    await using server = await preParsedServer({ maxBodyBytes: 256 });
    const big = { ...initializeRequest(), params: { pad: 'x'.repeat(512) } };
    expect((await raw(server.url, { headers: POST_HEADERS, body: big })).status).toBe(413);
  });
});

/**
 * The handler mounted behind an Express-style body parser: the framework reads the stream and leaves the
 * parsed JSON in `req.body` before the adapter runs.
 */
async function preParsedServer(
  options: { maxBodyBytes?: number } = {},
): Promise<{ url: string; [Symbol.asyncDispose](): Promise<void> }> {
  const handler = createStreamableHttpHandler({
    ...options,
    onsession: async (transport) => {
      attachResponder(transport);
      await transport.start();
    },
  });
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      (req as unknown as { body: unknown }).body = JSON.parse(text);
      node(req, res);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    [Symbol.asyncDispose]: async () => {
      await handler.close();
      await closeServer(http);
    },
  };
}
