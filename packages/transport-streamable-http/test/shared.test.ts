import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue, paramHeadersOf } from '../src/index.js';
import { classifyBodiless, classifyPost } from '../src/server/classify-era.js';
import { acceptsAll, isJsonContentType } from '@x/protocol/http';

describe('header value encoding (2026-07-28 "Value Encoding")', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('encodes %j as the spec table says and decodes it back', (value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
    expect(decodeHeaderValue(header)).toBe(value);
  });

  it('refuses malformed sentinels and unsafe plain values', () => {
    expect(decodeHeaderValue('=?base64?not base64!?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?/w==?=')).toBeUndefined(); // 0xFF is not UTF-8
    expect(decodeHeaderValue('caf\u00e9')).toBeUndefined();
  });
});

describe('x-mcp-header annotations', () => {
  it('collects nested properties paths and enforces the constraints', () => {
    expect(
      paramHeadersOf({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          opts: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } } },
          list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Ignored' } },
        },
      }),
    ).toEqual([
      { name: 'Region', path: ['region'] },
      { name: 'Dry-Run', path: ['opts', 'dry'] },
    ]);
    expect(() => paramHeadersOf({ properties: { a: { type: 'number', 'x-mcp-header': 'A' } } })).toThrow(
      TypeError,
    );
    expect(() => paramHeadersOf({ properties: { a: { type: 'string', 'x-mcp-header': 'A B' } } })).toThrow(
      TypeError,
    );
    expect(() =>
      paramHeadersOf({
        properties: {
          a: { type: 'string', 'x-mcp-header': 'X' },
          b: { type: 'string', 'x-mcp-header': 'x' },
        },
      }),
    ).toThrow(/unique/);
  });
});

describe('media types', () => {
  it('needs both JSON and SSE in Accept, honouring wildcards and q=0', () => {
    expect(acceptsAll('application/json, text/event-stream', ['application/json', 'text/event-stream'])).toBe(
      true,
    );
    expect(acceptsAll('*/*', ['application/json', 'text/event-stream'])).toBe(true);
    expect(acceptsAll('application/json;q=0.9, text/*', ['application/json', 'text/event-stream'])).toBe(
      true,
    );
    expect(acceptsAll('application/json', ['application/json', 'text/event-stream'])).toBe(false);
    expect(
      acceptsAll('application/json, text/event-stream;q=0', ['application/json', 'text/event-stream']),
    ).toBe(false);
    expect(acceptsAll(null, ['text/event-stream'])).toBe(false);
  });

  it('accepts JSON bodies in UTF-8 only', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=UTF-8')).toBe(true);
    expect(isJsonContentType('application/json; charset=latin1')).toBe(false);
    expect(isJsonContentType('text/json')).toBe(false);
  });
});

describe('era classification', () => {
  const meta = (version: string) => ({
    jsonrpc: '2.0' as const,
    id: 1,
    method: 'tools/list',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version } },
  });
  const headers = (init: Record<string, string>) => new Headers(init);

  it.each([
    ['modern header', 'modern', { 'mcp-protocol-version': '2026-07-28' }, meta('2026-07-28')],
    [
      'modern header beats a session id',
      'modern',
      { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': 's' },
      meta('2026-07-28'),
    ],
    ['future version header', 'modern', { 'mcp-protocol-version': '2027-01-01' }, meta('2027-01-01')],
    ['legacy header', 'legacy', { 'mcp-protocol-version': '2025-11-25' }, meta('2026-07-28')],
    ['modern _meta, no header, no session', 'modern', {}, meta('2026-07-28')],
    ['modern _meta with a session id', 'legacy', { 'mcp-session-id': 's' }, meta('2026-07-28')],
    ['bare request', 'legacy', {}, { jsonrpc: '2.0' as const, id: 1, method: 'ping' }],
    ['initialize', 'legacy', {}, { jsonrpc: '2.0' as const, id: 1, method: 'initialize', params: {} }],
  ])('%s → %s', (_name, era, init, body) => {
    expect(classifyPost(headers(init), body)).toBe(era);
  });

  it('treats batches as legacy and GET/DELETE as modern only by header', () => {
    expect(classifyPost(headers({ 'mcp-protocol-version': '2026-07-28' }), [meta('2026-07-28')])).toBe(
      'legacy',
    );
    expect(classifyBodiless(headers({ 'mcp-protocol-version': '2026-07-28' }))).toBe('modern');
    expect(classifyBodiless(headers({}))).toBe('legacy');
  });
});
