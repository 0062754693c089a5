import type { ServerResponse } from 'node:http';
import fc from 'fast-check';

/** One HTTP answer a hostile party gives: status, content type (none when undefined) and body text. */
export interface DocumentReply {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string;
  /** How the body was made hostile (for failure messages), `valid` when it was not. */
  readonly how: string;
}

/** Writes `reply` (a 3xx points `Location` at a `file:` URL: a redirect must never be followed there). */
export function writeReply(response: ServerResponse, reply: DocumentReply): void {
  const headers: Record<string, string> = {};
  if (reply.contentType !== undefined) headers['content-type'] = reply.contentType;
  if (reply.status >= 300 && reply.status < 400) headers['location'] = 'file:///etc/passwd';
  response.writeHead(reply.status, headers).end(reply.body);
}

/** Keys that reach `Object.prototype` when a parser or a spread is careless. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** JSON text of `value` with `{"<key>":{"polluted":true}}` spliced in (JSON.stringify would drop `__proto__`). */
export function withPrototypeKey(value: Record<string, unknown>, key: string): string {
  const text = JSON.stringify(value);
  return `{"${key}":{"polluted":true},${text.slice(1)}`;
}

/** Nesting `depth` arrays deep, as JSON text. */
export const deepJson = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Values of the wrong type for any field. */
export const wrongTypeArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, '', ' ', [], {}, [null], [[]], { '': '' }),
  fc.jsonValue({ maxDepth: 2 }),
);

export interface BodyHostility {
  /** The largest padding or string a document may carry, in bytes. */
  readonly hugeBytes: number;
  /** The deepest nesting a document may carry. */
  readonly maxDepth: number;
}

/**
 * Turns a (possibly already mutated) JSON document into an HTTP answer, most often unchanged; otherwise
 * huge, deep, truncated, not JSON, not an object, or with a hostile status or content type.
 */
export function replyArbitrary(
  document: fc.Arbitrary<{ text: string; how: string }>,
  limits: BodyHostility,
): fc.Arbitrary<DocumentReply> {
  const json = 'application/json';
  const body = fc.oneof(
    { weight: 6, arbitrary: document },
    {
      weight: 1,
      arbitrary: fc.tuple(document, fc.integer({ min: 1, max: limits.hugeBytes })).map(([doc, size]) => ({
        text: `{"padding":"${'x'.repeat(size)}",${doc.text.startsWith('{') && doc.text.length > 2 ? doc.text.slice(1) : '"doc":null}'}`,
        how: `${doc.how}+huge(${size})`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(document, fc.integer({ min: 64, max: limits.maxDepth })).map(([doc, depth]) => ({
        text: `{"deep":${deepJson(depth)},${doc.text.startsWith('{') && doc.text.length > 2 ? doc.text.slice(1) : '"doc":null}'}`,
        how: `${doc.how}+deep(${depth})`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(document, fc.nat()).map(([doc, cut]) => ({
        text: doc.text.slice(0, cut % Math.max(1, doc.text.length)),
        how: 'truncated',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 200 }).map((text) => ({ text, how: 'garbage' })),
        fc.constantFrom(
          { text: '<html><body>Sign in</body></html>', how: 'html' },
          { text: '', how: 'empty' },
          { text: '\u0000\u0001\u0002', how: 'binary' },
          { text: '\uFEFF{}', how: 'bom' },
          { text: '{"a":1}{"b":2}', how: 'two documents' },
        ),
        fc
          .jsonValue({ maxDepth: 2 })
          .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value))
          .map((value) => ({ text: JSON.stringify(value ?? null), how: 'not an object' })),
      ),
    },
  );
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(json) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | undefined>(
        undefined,
        'text/html',
        'application/octet-stream',
        'application/json; charset=utf-16',
        'text/event-stream',
        'application/jwk-set+json',
      ),
    },
  );
  const status = fc.oneof(
    { weight: 8, arbitrary: fc.constant(200) },
    { weight: 1, arbitrary: fc.constantFrom(201, 204, 301, 302, 400, 401, 403, 404, 429, 500, 502, 503) },
  );
  return fc
    .record({ body, contentType, status })
    .map(({ body: { text, how }, contentType: type, status: code }) => ({
      status: code,
      contentType: type,
      // 204 and 304 carry no body (node:http refuses to write one).
      body: code === 204 ? '' : text,
      how: `${how}${type === json ? '' : ` as ${type ?? 'no type'}`}${code === 200 ? '' : ` status ${code}`}`,
    }));
}
