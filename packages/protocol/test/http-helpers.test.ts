import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  createDnsRebindingGuard,
  quotedString,
  HttpStatusError,
  parseRetryAfter,
  isJsonContentType,
  PayloadTooLargeError,
  parseMediaType,
  readBoundedEvents,
  readBoundedText,
} from '@x/protocol/http';

function request(headers: Record<string, string>, url = 'http://localhost/sse'): Request {
  return new Request(url, { headers });
}

describe('createDnsRebindingGuard', () => {
  it('accepts loopback hosts on any port by default, and origins served from them', () => {
    const guard = createDnsRebindingGuard();
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:1', '[::1]:8080', 'LOCALHOST.']) {
      expect(guard(request({ host }))).toBeUndefined();
    }
    expect(guard(request({ host: 'localhost:3000', origin: 'http://127.0.0.1:5173' }))).toBeUndefined();
  });

  it('refuses foreign hosts, foreign or opaque origins, and malformed hosts', () => {
    const guard = createDnsRebindingGuard();
    expect(guard(request({ host: 'evil.example' }))).toMatch(/Invalid Host/);
    expect(guard(request({ host: 'localhost.evil.example' }))).toMatch(/Invalid Host/);
    expect(guard(request({ host: 'user@localhost' }))).toMatch(/Invalid Host/);
    expect(guard(request({ host: 'localhost', origin: 'https://evil.example' }))).toMatch(/Invalid Origin/);
    expect(guard(request({ host: 'localhost', origin: 'null' }))).toMatch(/Invalid Origin/);
  });

  it('pins ports when an allowed host names one, and matches explicit origins exactly', () => {
    const guard = createDnsRebindingGuard({
      allowedHosts: ['mcp.example:8443'],
      allowedOrigins: ['https://app.example'],
    });
    expect(guard(request({ host: 'mcp.example:8443', origin: 'https://app.example:443' }))).toBeUndefined();
    expect(guard(request({ host: 'mcp.example:8444' }))).toMatch(/Invalid Host/);
    expect(guard(request({ host: 'mcp.example:8443', origin: 'http://app.example' }))).toMatch(
      /Invalid Origin/,
    );
    expect(() => createDnsRebindingGuard({ allowedHosts: ['a b'] })).toThrow(TypeError);
  });

  // Issue #24 (3): "servers MUST validate the Origin header" on every bind, not only on loopback.
  it('refuses a rebound browser on a non-loopback address (Host matches, Origin is the attacker)', () => {
    const guard = createDnsRebindingGuard();
    const rebound = request({ host: 'evil.example', origin: 'http://evil.example' });
    expect(guard(rebound, '0.0.0.0')).toMatch(
      /Invalid Origin header: http:\/\/evil\.example.*allowedOrigins/,
    );
    expect(guard(rebound, '192.168.1.5')).toMatch(/Invalid Origin/);
    // Same origin as the request is no defence either.
    expect(
      guard(request({ host: '192.168.1.5:3000', origin: 'http://192.168.1.5:3000' }), '192.168.1.5'),
    ).toMatch(/Invalid Origin/);
    // No Origin (not a browser): the Host of a non-loopback bind is not guessed.
    expect(guard(request({ host: '192.168.1.5:3000' }), '192.168.1.5')).toBeUndefined();
    // Loopback pages on any port are the default allow-list, on every address.
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:8080']) {
      expect(guard(request({ host: '192.168.1.5:3000', origin }), '192.168.1.5')).toBeUndefined();
    }
    expect(guard(request({ host: 'localhost', origin: 'http://localhost.evil.example' }), '::1')).toMatch(
      /Invalid Origin/,
    );
  });

  it('serves browsers on another address only from configured origins; * turns the Origin check off', () => {
    const configured = createDnsRebindingGuard({
      allowedOrigins: ['https://app.example', 'http://dev.example:*'],
    });
    const at = (origin: string) => configured(request({ host: '10.0.0.5', origin }), '10.0.0.5');
    expect(at('https://app.example')).toBeUndefined();
    expect(at('http://dev.example:9999')).toBeUndefined();
    expect(at('https://dev.example:9999')).toMatch(/Invalid Origin/);
    expect(at('http://localhost:5173')).toMatch(/Invalid Origin/);
    const any = createDnsRebindingGuard({ allowedOrigins: ['*'] });
    expect(any(request({ host: '10.0.0.5', origin: 'null' }), '10.0.0.5')).toBeUndefined();
    // allowedHosts given: checked on every address, and its names also serve browsers.
    const named = createDnsRebindingGuard({ allowedHosts: ['mcp.example'] });
    expect(named(request({ host: 'evil.example' }), '10.0.0.5')).toMatch(/Invalid Host/);
    expect(
      named(request({ host: 'mcp.example', origin: 'https://mcp.example' }), '10.0.0.5'),
    ).toBeUndefined();
    expect(named(request({ host: 'mcp.example', origin: 'https://evil.example' }), '10.0.0.5')).toMatch(
      /Invalid Origin/,
    );
    expect(() => createDnsRebindingGuard({ allowedOrigins: ['not an origin'] })).toThrow(TypeError);
  });

  it('reads only what it needs: a request without Host and a relative URL is refused, not thrown on', () => {
    const guard = createDnsRebindingGuard();
    expect(guard({ url: '/mcp', headers: { get: () => null } })).toMatch(/Invalid Host/);
  });
});

describe('isJsonContentType', () => {
  it('accepts application/json in UTF-8 only', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset="UTF-8"')).toBe(true);
    expect(isJsonContentType('application/json; charset=utf-16')).toBe(false);
    expect(isJsonContentType('application/jsonx')).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });

  it('answers a repeated header like a fresh one (the last answer is remembered)', () => {
    const headers = [
      'application/json',
      'text/plain',
      'application/json',
      'application/json',
      null,
      'text/plain',
    ];
    expect(headers.map((header) => isJsonContentType(header))).toEqual([
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('parseMediaType', () => {
  it('reads the essence in lower case and a charset among other parameters', () => {
    expect(parseMediaType('Text/Event-Stream')).toEqual({ type: 'text/event-stream' });
    expect(parseMediaType('application/json ; foo=bar; Charset="UTF-8"')).toEqual({
      type: 'application/json',
      charset: 'utf-8',
    });
    expect(parseMediaType('application/json;charset')).toEqual({ type: 'application/json' });
    expect(parseMediaType('application/json;;charset=latin1;')).toEqual({
      type: 'application/json',
      charset: 'latin1',
    });
  });

  it('refuses what is not type/subtype', () => {
    for (const header of ['', 'json', 'a/b/c', 'a b/c', '/json', 'application/', ';charset=utf-8']) {
      expect(parseMediaType(header)).toBeUndefined();
    }
    expect(parseMediaType(null)).toBeUndefined();
    expect(parseMediaType(undefined)).toBeUndefined();
  });
});

describe('readBoundedText', () => {
  /** A chunked body, so only reading finds its size. */
  const streamed = (parts: Uint8Array[]) =>
    new Request('http://localhost/', {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
  const text = (value: string) => new TextEncoder().encode(value);

  it('joins chunks, including a character split across them', async () => {
    const bytes = text('é😀');
    expect(await readBoundedText(streamed([bytes.slice(0, 3), bytes.slice(3)]), { maxBytes: 100 })).toBe(
      'é😀',
    );
  });

  it('fails on a declared or streamed size over the limit, and on bytes that are not UTF-8', async () => {
    const declared = new Request('http://localhost/', { method: 'POST', body: 'x'.repeat(11) });
    await expect(readBoundedText(declared, { maxBytes: 10 })).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(
      readBoundedText(streamed([text('x'.repeat(6)), text('x'.repeat(6))]), { maxBytes: 10 }),
    ).rejects.toBeInstanceOf(PayloadTooLargeError);
    const latin1 = new Request('http://localhost/', { method: 'POST', body: new Uint8Array([0xff, 0xfe]) });
    await expect(readBoundedText(latin1, { maxBytes: 10 })).rejects.toBeInstanceOf(TypeError);
  });
});

describe('readBoundedEvents (a body delivered as Node-style events)', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('joins the chunks as UTF-8, also a character split across two chunks', async () => {
    const source = new EventEmitter();
    const text = readBoundedEvents(source, { maxBytes: 100 });
    const euro = bytes('€');
    source.emit('data', bytes('{"a":"'));
    source.emit('data', euro.slice(0, 1));
    source.emit('data', euro.slice(1));
    source.emit('data', bytes('"}'));
    source.emit('end');
    source.emit('close');
    await expect(text).resolves.toBe('{"a":"€"}');
  });

  it('fails at the first chunk past the limit, and when the client goes away before the end', async () => {
    const big = new EventEmitter();
    const tooLarge = readBoundedEvents(big, { maxBytes: 4 });
    big.emit('data', bytes('abc'));
    big.emit('data', bytes('de'));
    await expect(tooLarge).rejects.toBeInstanceOf(PayloadTooLargeError);

    const cut = new EventEmitter();
    const gone = readBoundedEvents(cut, { maxBytes: 100 });
    cut.emit('data', bytes('{"a"'));
    cut.emit('close');
    await expect(gone).rejects.toThrow(/ended early/);

    const bad = new EventEmitter();
    const notUtf8 = readBoundedEvents(bad, { maxBytes: 100 });
    bad.emit('data', new Uint8Array([0xff, 0xfe]));
    bad.emit('end');
    await expect(notUtf8).rejects.toBeInstanceOf(TypeError);
  });

  it('refuses a declared Content-Length over the limit before reading, and reads an ended body as empty', async () => {
    const declared = Object.assign(new EventEmitter(), { headers: { 'content-length': '5' } });
    await expect(readBoundedEvents(declared, { maxBytes: 4 })).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(declared.listenerCount('data')).toBe(0); // nothing was read
    const ended = Object.assign(new EventEmitter(), { readableEnded: true });
    await expect(readBoundedEvents(ended, { maxBytes: 4 })).resolves.toBe('');
  });
});

describe('HttpStatusError.from', () => {
  it('reads at most the first KiB of an error body and cancels the rest (a huge error page costs nothing)', async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new TextEncoder().encode('e'.repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        // 300 MB if read whole.
        if (pulled > 300 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const error = await HttpStatusError.from(new Response(body, { status: 500 }), 'POST to /mcp');
    expect(error.status).toBe(500);
    expect(error.body).toBe('e'.repeat(1024));
    expect(error.message).toBe(`POST to /mcp failed with HTTP 500: ${'e'.repeat(1024)}`);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(4 * chunk.byteLength);
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP-dates (RFC 9110 §10.2.3) into HttpStatusError.retryAfterMs', async () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    const now = Date.UTC(2026, 10, 27, 6, 0, 0);
    expect(parseRetryAfter(new Date(now + 5_000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter(new Date(now - 5_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
    const refused = new Response('busy', { status: 503, headers: { 'retry-after': '2' } });
    expect((await HttpStatusError.from(refused, 'POST')).retryAfterMs).toBe(2000);
    expect(
      (await HttpStatusError.from(new Response('x', { status: 503 }), 'POST')).retryAfterMs,
    ).toBeUndefined();
  });
});

describe('quotedString', () => {
  it('escapes quote and backslash and drops control characters (RFC 9110 §5.6.4)', () => {
    expect(quotedString('files:read')).toBe('"files:read"');
    expect(quotedString('a "b" \\c')).toBe('"a \\"b\\" \\\\c"');
    expect(quotedString('line\r\nbreak\u0000\u007f')).toBe('"linebreak"');
  });
});
