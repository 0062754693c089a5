import { describe, expect, it } from 'vitest';
import { Cors, DEFAULT_CORS_MAX_AGE_SECONDS, LazyResponse, toPlatformResponse } from '../src/http/index.js';
import type { FrameSink, FrameStream } from '../src/http/index.js';

/** A frame stream over fixed frames, as an SSE body of a server. */
function frames(chunks: string[]): FrameStream {
  const encoder = new TextEncoder();
  return {
    closed: true,
    get stream() {
      return new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
          controller.close();
        },
      });
    },
    attach(sink: FrameSink) {
      sink.write(chunks.join(''));
      sink.end();
      return chunks.length > 0;
    },
    abandon() {},
  };
}

describe('LazyResponse', () => {
  it('is a Response by its type and answers status, ok and statusText without building one', () => {
    const response: Response = new LazyResponse(
      404,
      { 'content-type': 'application/json' },
      '{}',
      'Not Found',
    );
    expect(response.status).toBe(404);
    expect(response.ok).toBe(false);
    expect(response.statusText).toBe('Not Found');
    expect(response.bodyUsed).toBe(false);
    expect((response as LazyResponse).materialized).toBe(false);
    expect(new LazyResponse(204, {}).ok).toBe(true);
  });

  it('builds the platform Response once, on the first read of headers or body, from the record', async () => {
    const response = new LazyResponse(200, { 'content-type': 'application/json' }, '{"a":1}');
    response.headerRecord['mcp-session-id'] = 'abc';
    expect(response.headers.get('mcp-session-id')).toBe('abc');
    expect(response.materialized).toBe(true);
    expect(response.toResponse()).toBe(response.toResponse());
    expect(toPlatformResponse(response)).toBeInstanceOf(Response);
    expect(await response.clone().json()).toEqual({ a: 1 });
    expect(await response.text()).toBe('{"a":1}');
    expect(response.bodyUsed).toBe(true);
  });

  it('reads a frame stream body as bytes and a missing body as null', async () => {
    const sse = new LazyResponse(
      200,
      { 'content-type': 'text/event-stream' },
      frames(['data: 1\n\n', 'data: 2\n\n']),
    );
    expect(await sse.text()).toBe('data: 1\n\ndata: 2\n\n');
    const empty = new LazyResponse(202, {});
    expect(empty.body).toBeNull();
    expect(await empty.arrayBuffer()).toHaveProperty('byteLength', 0);
  });

  it('passes a platform Response through toPlatformResponse untouched', () => {
    const platform = new Response('x');
    expect(toPlatformResponse(platform)).toBe(platform);
  });
});

describe('Cors', () => {
  const policy = { allowMethods: 'GET, POST', exposeHeaders: 'X-Exposed', allowHeaders: 'Content-Type' };
  const request = (headers: Record<string, string>) => ({ headers: new Headers(headers) });

  it('answers a preflight with the policy, the default max age, and the origin when it is allowed', async () => {
    const cors = new Cors({ origin: ['https://app.example'] }, policy);
    const allowed = cors.preflight(request({ origin: 'https://app.example' }));
    expect(allowed.status).toBe(204);
    expect(allowed.headerRecord).toMatchObject({
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'Content-Type',
      'access-control-max-age': String(DEFAULT_CORS_MAX_AGE_SECONDS),
      'access-control-allow-origin': 'https://app.example',
      vary: 'Origin',
    });
    const reflected = cors.preflight(
      request({ origin: 'https://evil.example', 'access-control-request-headers': 'mcp-param-x' }),
    );
    expect(reflected.headerRecord['access-control-allow-origin']).toBeUndefined();
    expect(reflected.headerRecord['access-control-allow-headers']).toBe('mcp-param-x');
    expect(DEFAULT_CORS_MAX_AGE_SECONDS).toBe(600);
  });

  it('adds the headers to a LazyResponse record without building it, and to a platform Response', () => {
    const cors = new Cors({ credentials: true }, policy);
    const lazy = new LazyResponse(200, { vary: 'Accept' }, 'x');
    expect(cors.apply(request({ origin: 'https://a.example' }), lazy)).toBe(lazy);
    expect(lazy.materialized).toBe(false);
    expect(lazy.headerRecord).toMatchObject({
      'access-control-allow-origin': 'https://a.example',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Exposed',
      vary: 'Accept, Origin',
    });
    const immutable = Response.redirect('https://a.example/elsewhere', 302);
    const copied = cors.apply(request({ origin: 'https://a.example' }), immutable);
    expect(copied.headers.get('access-control-allow-origin')).toBe('https://a.example');
    expect(copied.status).toBe(302);
  });

  it('leaves a response alone for an origin off the list, and answers * without credentials', () => {
    const listed = new Cors({ origin: 'https://a.example' }, policy);
    const lazy = new LazyResponse(200, {});
    listed.apply(request({ origin: 'https://b.example' }), lazy);
    expect(lazy.headerRecord).toEqual({});
    expect(new Cors({}, policy).headersFor(new Headers({ origin: 'https://b.example' }))).toEqual({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'X-Exposed',
    });
  });
});
