import fc from 'fast-check';

/** Stands for the request's id in a reply frame (the fake server substitutes the JSON of the id). */
export const ID = '"__ID__"';

/**
 * How a hostile fake server answers one `tools/call`: the frames it sends back (each one line, text frame
 * or SSE event; `ID` is replaced by the request's id), and for HTTP how the reply is framed. The plan
 * travels inside the request (`arguments.plan`), so one fake server serves every generated case.
 */
export interface ReplyPlan {
  readonly kind: ReplyKind;
  readonly frames: readonly string[];
  /** HTTP only: JSON body (the first frame), an SSE stream of every frame, an error status, or a cut connection. */
  readonly http: 'json' | 'sse' | 'status' | 'destroy';
  /** HTTP status for `http: 'status'`. */
  readonly status: number;
}

export const REPLY_KINDS = [
  'valid',
  'garbage',
  'wrong-id',
  'deep',
  'bad-result',
  'bad-error',
  'duplicate',
  'silence',
  'server-traffic',
  'prototype-keys',
  'batch',
  'huge',
] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

export const OK_RESULT = { content: [{ type: 'text', text: 'ok' }] };
const ok = `{"jsonrpc":"2.0","id":${ID},"result":${JSON.stringify(OK_RESULT)}}`;
const lineSafe = (text: string) => text.replace(/[\r\n\u2028\u2029]/g, ' ');

/** The reply plan that answers correctly (the control call after each hostile one). */
export const VALID_PLAN: ReplyPlan = { kind: 'valid', frames: [ok], http: 'json', status: 200 };

export function replyPlanArbitrary(large: boolean): fc.Arbitrary<ReplyPlan> {
  const frames: Record<ReplyKind, fc.Arbitrary<string[]>> = {
    valid: fc.constant([ok]),
    garbage: fc.string({ minLength: 1, maxLength: 80 }).map((text) => [lineSafe(text) || '?', ok]),
    'wrong-id': fc
      // Ids the client never uses (it counts up from 0), so concurrent calls are not answered by it.
      .oneof(
        fc.integer({ max: -1 }),
        fc.string({ maxLength: 10 }).map((id) => `wrong-${id}`),
      )
      .map((id) => [`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{}}`, ok]),
    deep: fc
      .integer({ min: 129, max: large ? 1_000_000 : 4_000 })
      .map((depth) => [
        `{"jsonrpc":"2.0","id":${ID},"result":{"content":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
      ]),
    'bad-result': fc
      .jsonValue({ maxDepth: 3 })
      .map((result) => [`{"jsonrpc":"2.0","id":${ID},"result":${JSON.stringify(result ?? null)}}`]),
    'bad-error': fc
      .record({
        code: fc.jsonValue({ maxDepth: 1 }),
        message: fc.jsonValue({ maxDepth: 1 }),
        data: fc.jsonValue({ maxDepth: 2 }),
      })
      .map((error) => [`{"jsonrpc":"2.0","id":${ID},"error":${JSON.stringify(error)}}`]),
    duplicate: fc.constant([ok, ok]),
    silence: fc.constant([]),
    'server-traffic': fc
      .record({
        method: fc.constantFrom(
          'ping',
          'sampling/createMessage',
          'roots/list',
          'x/unknown',
          'notifications/message',
          'notifications/progress',
        ),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
        params: fc.jsonValue({ maxDepth: 2 }),
      })
      .map(({ method, id, params }) => {
        const body = method.startsWith('notifications/')
          ? { jsonrpc: '2.0', method, params }
          : { jsonrpc: '2.0', id, method, params };
        return [JSON.stringify(body), ok];
      }),
    'prototype-keys': fc
      .constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty')
      .map((key) => [
        `{"jsonrpc":"2.0","id":${ID},"result":{"content":[],"${key}":{"polluted":true},"structuredContent":{"${key}":{"polluted":true}}}}`,
      ]),
    batch: fc.constant([`[${ok}]`]),
    huge: fc
      .integer({ min: 1, max: large ? 3 * 1024 * 1024 : 64 * 1024 })
      .map((length) => [
        `{"jsonrpc":"2.0","id":${ID},"result":{"content":[{"type":"text","text":"${'x'.repeat(length)}"}]}}`,
      ]),
  };
  return fc
    .record({
      kind: fc.constantFrom(...REPLY_KINDS),
      http: fc.constantFrom<ReplyPlan['http']>('json', 'sse', 'sse', 'status', 'destroy'),
      status: fc.constantFrom(400, 401, 404, 409, 413, 429, 500, 502, 503),
    })
    .chain(({ kind, http, status }) => frames[kind].map((list) => ({ kind, frames: list, http, status })));
}

/** The frames of `plan` for the request `id` (what the fake server writes). */
export function framesFor(plan: Pick<ReplyPlan, 'frames'>, id: unknown): string[] {
  const json = JSON.stringify(id);
  return plan.frames.map((frame) => frame.split(ID).join(json));
}
