import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  type FrameSink,
  type FrameStream,
  type HttpIncoming,
  type IncomingHandler,
  LazyResponse,
  webIncoming,
} from '../../src/http/index.js';
import { toNodeHandler } from '../../src/node/index.js';
import type { NodeHandler } from '../../src/node/index.js';

async function listen(
  listener: NodeHandler,
): Promise<{ port: number; [Symbol.asyncDispose](): Promise<void> }> {
  const server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, onChunk?: (text: string) => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path: '/x' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        onChunk?.(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A frame stream a test writes into after the head went out. */
class TestFrames implements FrameStream {
  sink: FrameSink | undefined;
  abandoned = false;
  closed = false;
  get stream(): ReadableStream<Uint8Array> {
    throw new Error('the node path must not build a Web stream');
  }
  attach(sink: FrameSink): boolean {
    this.sink = sink;
    return false;
  }
  abandon(): void {
    this.abandoned = true;
  }
}

function incomingHandler(serve: (incoming: HttpIncoming) => Promise<Response>): IncomingHandler {
  return Object.assign(async (request: Request) => serve(webIncoming(request)), { handleIncoming: serve });
}

describe('toNodeHandler', () => {
  it('serves an IncomingHandler through handleIncoming and writes its LazyResponse with a length', async () => {
    let webCalls = 0;
    const handler = Object.assign(
      async () => {
        webCalls += 1;
        return new Response('web');
      },
      {
        handleIncoming: async (incoming: HttpIncoming) =>
          new LazyResponse(
            201,
            { 'content-type': 'text/plain' },
            `${incoming.method} ${incoming.url.pathname}`,
          ),
      },
    );
    await using server = await listen(toNodeHandler(handler));
    const answer = await get(server.port);
    expect(answer).toMatchObject({ status: 201, body: 'GET /x' });
    expect(answer.headers['content-length']).toBe('6');
    expect(webCalls).toBe(0);
  });

  it('streams a frame stream to the socket as it is written, and opens it at once when nothing is held', async () => {
    const frames = new TestFrames();
    const handler = incomingHandler(
      async () => new LazyResponse(200, { 'content-type': 'text/event-stream' }, frames),
    );
    await using server = await listen(toNodeHandler(handler));
    const answer = get(server.port, () => frames.sink?.end());
    await expect.poll(() => frames.sink).toBeDefined();
    frames.sink?.write('data: 1\n\n');
    const { status, headers, body } = await answer;
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('text/event-stream');
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(body).toBe('data: 1\n\n');
    expect(frames.abandoned).toBe(false);
  });

  it('writes a platform Response of a plain WebHandler, with the Request it built', async () => {
    await using server = await listen(
      toNodeHandler(
        async (request) =>
          new Response(`${request.method} ${new URL(request.url).pathname}`, { status: 203 }),
      ),
    );
    expect(await get(server.port)).toMatchObject({ status: 203, body: 'GET /x' });
  });

  it('writes a LazyResponse someone already read through the platform Response it became', async () => {
    const handler = incomingHandler(async () => {
      const response = new LazyResponse(200, { 'content-type': 'text/plain' }, 'read');
      response.headers.set('x-after-read', 'yes');
      return response;
    });
    await using server = await listen(toNodeHandler(handler));
    const answer = await get(server.port);
    expect(answer.body).toBe('read');
    expect(answer.headers['x-after-read']).toBe('yes');
  });
});
